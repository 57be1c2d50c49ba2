/**
 * What `GET /console/api/dashboard` answers (decision 234): the founder's morning figures. Types
 * only, so the console's home page takes them without any schema code in its chunk. Amounts are
 * minor units (cents), net of VAT; MRR is monthly-normalized (a yearly price ÷ 12, to the cent per
 * subscription).
 */

export type DashboardCurrency = 'USD' | 'EUR';

/** MRR and its movements in one currency over one period. */
export interface MrrMovement {
  currency: DashboardCurrency;
  /** MRR at the period's start (the end of the month before). */
  startMinor: number;
  /** MRR at the period's end. */
  endMinor: number;
  newMinor: number;
  expansionMinor: number;
  contractionMinor: number;
  churnedMinor: number;
  /** Subscriptions behind each movement. */
  newCount: number;
  expansionCount: number;
  contractionCount: number;
  churnedCount: number;
  /** Subscriptions paying at the period's end. */
  payingAtEnd: number;
}

export interface TrialCohort {
  /** Trials started in the period. */
  started: number;
  /** Of those, converted to paid within 60 days of their start. */
  converted: number;
  /** Whether every trial of the period has had its 60 days (else the count can still grow). */
  final: boolean;
}

export interface MonthFigures {
  /** `YYYY-MM`, UTC. */
  month: string;
  trials: TrialCohort;
  mrr: MrrMovement[];
}

export interface OpenInvoiceSum {
  currency: DashboardCurrency;
  open: number;
  openMinor: number;
  overdue: number;
  overdueMinor: number;
}

export interface UsageDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /**
   * Orgs in use that day: seen validating a licence on or before it and last seen on or after it
   * (`licence_orgs`).
   */
  orgs: number;
  /**
   * Licence validations answered that day, every code (`validation_days`: each instance adds its
   * counts once a minute, so today's figure trails by up to a minute; decision 244).
   */
  validations: number;
  /** Of those, the answers other than `VALID` (not found, expired, too many orgs …). */
  refused: number;
}

export interface DashboardView {
  /** The month asked for, `YYYY-MM`. */
  month: string;
  /** When the figures were read (ISO). */
  readAt: string;
  /** The month asked for, and the 11 before it, oldest first (the trend). */
  months: MonthFigures[];
  /** Paid licences active now, by edition. */
  activePaidLicences: { Starter: number; Pro: number; Enterprise: number };
  /** Invoices owed now, per currency: ours (the local provider's) and Stripe's open ones (decision 245). */
  invoices: OpenInvoiceSum[];
  /** Subscriptions paid by invoice with an open invoice now (either provider), and how many are past due. */
  openInvoiceSubscriptions: { open: number; overdue: number };
  /** Usage per day of the month asked for (up to today). */
  usage: UsageDay[];
}
