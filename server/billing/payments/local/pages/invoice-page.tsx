/** @jsxImportSource hono/jsx */
import { formatEmailDate } from '#server/platform/email/render-email.ts';
import { INVOICE_SUSPEND_AFTER_DAYS } from '#server/billing/subscriptions/invoice-rules.ts';
import { vatOfPayment } from '#server/billing/documents/payment-document.ts';
import { vatAmounts, vatLabel } from '#shared/pricing/vat.ts';
import { formatIban, type BankAccount } from '#server/billing/bank-accounts.ts';
import { formatMinorAmount } from '../local-billing.ts';
import type { LocalInvoice } from '../local-payment-repository.ts';
import { PageLayout } from './page-layout.tsx';

export interface InvoicePageView {
  invoice: LocalInvoice;
  now: Date;
  /** The numbered invoice to file (decision 180), once issued. */
  document?: { number: string; url: string } | undefined;
  /** The seller's account it is paid into (decision 218); null: none in its currency. */
  bankAccount: BankAccount | null;
  /** Its credit notes (decision 220), oldest first. */
  creditNotes?: Array<{ number: string; url: string }> | undefined;
}

function InvoiceBadge({ invoice, now }: Pick<InvoicePageView, 'invoice' | 'now'>) {
  if (invoice.status === 'paid') return <span class="badge">Paid</span>;
  if (invoice.status === 'void') return <span class="badge muted">Cancelled</span>;
  if (invoice.dueAt && invoice.dueAt <= now) return <span class="badge danger">Overdue</span>;
  return <span class="badge warn">Open</span>;
}

/** One line of the details; a detail the invoice does not have is left out. */
function DetailLine(props: { label: string; value: string | null }) {
  if (!props.value) return null;
  return (
    <div class="line">
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

/**
 * The hosted page of an invoice sent for payment (decision 145), as Stripe's hosted invoice
 * page: who it is made out to, the PO number and VAT ID, the amount, due date and status. It is
 * paid by bank transfer; here an operator records that with `invoices mark-paid`.
 */
function InvoicePage({ invoice, now, document, bankAccount, creditNotes = [] }: InvoicePageView) {
  const number = invoice.number ?? invoice.id;
  // The amounts of the invoice the buyer files (decision 180): the provider keeps the net amount.
  const decision = vatOfPayment(invoice);
  const taxed = vatAmounts(invoice.amount, decision);
  const money = (minor: number) => formatMinorAmount(minor, invoice.currency);
  return (
    <PageLayout title={`Invoice ${number}`} subtitle="Invoice">
      <h1>
        Invoice {number} <InvoiceBadge invoice={invoice} now={now} />
      </h1>
      <section class="card summary" aria-labelledby="invoice-details">
        <h2 id="invoice-details">Details</h2>
        <dl>
          <DetailLine label="Billed to" value={invoice.companyName} />
          <DetailLine
            label="Address"
            value={invoice.billingAddress?.replaceAll('\n', ', ') ?? null}
          />
          <DetailLine label="E-mail" value={invoice.billingEmail} />
          <DetailLine label="VAT ID" value={invoice.vatId} />
          <DetailLine label="Purchase order" value={invoice.poReference} />
          <DetailLine label="Quote" value={invoice.quoteReference} />
          <DetailLine label="Description" value={invoice.description} />
          <DetailLine
            label="Period"
            value={`${formatEmailDate(invoice.periodStart)} – ${formatEmailDate(invoice.periodEnd)}`}
          />
          <DetailLine label="Issued" value={formatEmailDate(invoice.createdAt)} />
          <DetailLine
            label="Due date"
            value={invoice.dueAt ? formatEmailDate(invoice.dueAt) : null}
          />
          <DetailLine
            label="Paid on"
            value={invoice.paidAt ? formatEmailDate(invoice.paidAt) : null}
          />
          <DetailLine label="Net" value={money(taxed.netMinor)} />
          <DetailLine label={vatLabel(decision)} value={money(taxed.vatMinor)} />
          <div class="line total">
            <dt>
              {invoice.status === 'paid'
                ? 'Amount paid'
                : invoice.status === 'void'
                  ? 'Amount (cancelled)'
                  : 'Amount due'}
            </dt>
            <dd>{money(taxed.grossMinor)}</dd>
          </div>
        </dl>
      </section>
      {document ? (
        <section class="card" aria-labelledby="invoice-document">
          <h2 id="invoice-document">Invoice to file</h2>
          <p>
            The invoice with net, VAT and gross:{' '}
            <a href={document.url} rel="noreferrer">
              Download invoice {document.number} (PDF)
            </a>
          </p>
          {creditNotes.map((note) => (
            <p>
              Its credit note:{' '}
              <a href={note.url} rel="noreferrer">
                Download credit note {note.number} (PDF)
              </a>
            </p>
          ))}
        </section>
      ) : null}
      <section class="card" aria-labelledby="invoice-payment">
        <h2 id="invoice-payment">Payment</h2>
        {invoice.status === 'paid' ? (
          <p>This invoice is paid. Thank you.</p>
        ) : invoice.status === 'void' ? (
          <p>
            This invoice is cancelled: its credit note takes back what it asked for. Nothing is to
            be paid.
          </p>
        ) : (
          <>
            <p>Pay by bank transfer with the invoice number {number} as the payment reference.</p>
            {bankAccount ? (
              <dl>
                <DetailLine label="Payment reference" value={number} />
                <DetailLine label="Account holder" value={bankAccount.holder} />
                <DetailLine label="IBAN" value={formatIban(bankAccount.iban)} />
                <DetailLine label="BIC" value={bankAccount.bic} />
                <DetailLine label="Bank" value={bankAccount.bank} />
              </dl>
            ) : null}
            <p>
              In test mode, record the payment with{' '}
              <code>npm run admin -- invoices mark-paid {number}</code>.
            </p>
            <p>
              An invoice still open {INVOICE_SUSPEND_AFTER_DAYS} days after its due date suspends
              the licence until it is paid.
            </p>
          </>
        )}
      </section>
    </PageLayout>
  );
}

export function invoicePage(view: InvoicePageView) {
  return <InvoicePage {...view} />;
}
