import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.ts';
import {
  confirmationToken,
  confirmOrder,
  enterpriseOrder,
  openWorld,
  orderAndConfirm,
  placeOrder,
  whatExists,
  type OrderWorld,
} from './support/invoice-orders.ts';

/**
 * Issue 38, invariant B (decision 209): the caps of orders by invoice (decision 153) blocked
 * strangers. Three confirmed invoice orders from three gmail.com mailboxes gave every other
 * gmail.com customer `409 InvoiceOrderDomainLimit` for about 104 days; a stranger's pending order
 * for your billing address refused your own order for 24 hours. Free-mail domains are now capped
 * per address, and only a confirmed unpaid order holds an address; the confirmation checks the
 * caps again, under the same lock.
 */

const start = new Date('2026-03-01T10:00:00Z');

describe.each(databaseTargets)('invoice orders: no one blocks another on $name', (target) => {
  let world: OrderWorld;
  beforeAll(async () => {
    world = await openWorld(target, 'local', start);
  });
  afterAll(() => world.close());
  beforeEach(() => world.t.setNow(start));

  it.each(['gmail.com', 'hotmail.co.uk', 'yahoo.de'])(
    'three confirmed unpaid orders at %s leave the next customer there free to order and confirm',
    async (domain) => {
      const { t } = world;
      for (const name of ['ann', 'bob', 'cy']) {
        await orderAndConfirm(t, enterpriseOrder(`${name}@${domain}`));
      }
      const before = await whatExists(world);
      const order = await orderAndConfirm(t, enterpriseOrder(`dora@${domain}`));
      expect(order.licenceEmail).toBe(`dora@${domain}`);
      expect((await whatExists(world)).licences).toBe(before.licences + 1);
    },
  );

  it('a company domain still shares its three', async () => {
    const { t } = world;
    for (const name of ['ann', 'bob', 'cy']) {
      await orderAndConfirm(t, enterpriseOrder(`${name}@acme-company.test`));
    }
    const fourth = await placeOrder(t, enterpriseOrder('dora@acme-company.test'));
    expect(fourth.status).toBe(409);
    expect(await fourth.json()).toMatchObject({ Error: 'InvoiceOrderDomainLimit' });
  });

  it.each(['owner@owner-company.test', 'owner@gmail.com'])(
    "a stranger's pending order for %s does not block the owner's own; the owner's confirmed order holds the address",
    async (owner) => {
      const { t } = world;
      const stranger = await placeOrder(t, {
        ...enterpriseOrder(owner),
        companyName: 'Stranger Ltd',
      });
      expect(stranger.status).toBe(201);
      const strangersLink = await confirmationToken(t, owner);

      const own = await placeOrder(t, enterpriseOrder(owner));
      expect(own.status).toBe(201);
      const ownLink = await confirmationToken(t, owner);
      expect(ownLink).not.toBe(strangersLink);
      const before = await whatExists(world);
      expect((await confirmOrder(t, ownLink)).status).toBe(200);
      const after = await whatExists(world);
      expect(after.licences).toBe(before.licences + 1);

      // The owner's order is confirmed and unpaid: the stranger's link and a new order wait.
      const late = await confirmOrder(t, strangersLink);
      expect(late.status).toBe(409);
      expect(await late.json()).toMatchObject({ Error: 'InvoiceOrderOpen' });
      const again = await placeOrder(t, enterpriseOrder(owner));
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ Error: 'InvoiceOrderOpen' });
      expect(await whatExists(world)).toEqual(after);
    },
  );

  it.each(['twice@twice-company.test', 'twice@gmail.com'])(
    'two pending orders for %s confirmed at the same moment: one is confirmed',
    async (address) => {
      const { t } = world;
      expect((await placeOrder(t, enterpriseOrder(address))).status).toBe(201);
      const first = await confirmationToken(t, address);
      expect((await placeOrder(t, enterpriseOrder(address))).status).toBe(201);
      const second = await confirmationToken(t, address);
      const before = await whatExists(world);
      const answers = await Promise.all([confirmOrder(t, first), confirmOrder(t, second)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect((await whatExists(world)).licences).toBe(before.licences + 1);
    },
  );
});
