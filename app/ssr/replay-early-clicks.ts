/**
 * Clicks before hydration are kept, not lost (decision 138). React attaches its handlers only when
 * it hydrates, which starts after the first paint (decision 110); a visitor may click before that.
 * This inline script, first in the head, takes every click on a button or on an element marked
 * `data-replay` (a link whose click JavaScript must see, e.g. a download that counts an analytics
 * event) until the app calls `window.__replayEarlyClicks()` once hydration is done; then it clicks
 * the same elements again, in order. Links, `<details>` and forms without JavaScript are left to
 * the browser.
 *
 * A kept element is found again by itself while it is still in the page and still carries the same
 * `data-replay` value; otherwise by that value, or by its path from the nearest element with an id.
 * A kept link that is not replayed within 5 s (hydration failed) is followed as the browser would.
 */
export const earlyClickScript =
  '(function(){var queue=[],done=false;' +
  'function path(el){var key=el.getAttribute("data-replay");' +
  'if(key!==null)return"[data-replay=\\""+CSS.escape(key)+"\\"]";' +
  'var steps=[],node=el;' +
  'while(node&&node.parentElement){if(node.id){steps.unshift("#"+CSS.escape(node.id));break}' +
  'var n=1,s=node;while((s=s.previousElementSibling))if(s.tagName===node.tagName)n++;' +
  'steps.unshift(node.tagName.toLowerCase()+":nth-of-type("+n+")");node=node.parentElement}' +
  'return steps.join(">")}' +
  'function keep(e){if(done||!(e.target instanceof Element))return;' +
  'var el=e.target.closest("button,[data-replay]");if(!el||el.disabled)return;' +
  'if(el.tagName==="A"&&(e.ctrlKey||e.metaKey||e.shiftKey||e.altKey))return;' +
  'e.preventDefault();e.stopImmediatePropagation();' +
  'var item={el:el,key:el.getAttribute("data-replay"),path:path(el)};queue.push(item);' +
  'if(el.tagName==="A")setTimeout(function(){var at=queue.indexOf(item);' +
  'if(done||at<0)return;queue.splice(at,1);location.assign(el.href)},5000)}' +
  'addEventListener("click",keep,true);' +
  'window.__replayEarlyClicks=function(){if(done)return;done=true;' +
  'removeEventListener("click",keep,true);' +
  'queue.splice(0).forEach(function(item){var el=item.el;' +
  'if(!el.isConnected||el.getAttribute("data-replay")!==item.key)el=document.querySelector(item.path);' +
  'if(el)el.click()})}})();';

declare global {
  interface Window {
    /** Set by {@link earlyClickScript}: replays the clicks kept before hydration, once. */
    __replayEarlyClicks?: () => void;
  }
}

/** Called once the app has hydrated: the kept clicks reach their handlers now. */
export function replayEarlyClicks(): void {
  window.__replayEarlyClicks?.();
}
