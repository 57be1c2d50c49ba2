/** A licence as the customer's story answers it (server/features/customers/customer-story.ts). */
export interface StoryLicence {
  id: string;
  type: 'Trial' | 'Free' | 'Paid';
  edition: string;
  quantity: number;
  status: string;
  state: string;
  maskedKey: string;
  email: string;
  expiresAt: string | null;
  createdAt: string;
  revokedAt: string | null;
  revocationReason: string | null;
  /** The stop under `revokedAt` is a suspension (tokens kept), not a revocation (decision 248). */
  suspended: boolean;
  subscriptionId: string | null;
  orgLimit: number | 'unlimited';
  orgsInUse: number;
  orgs: { orgId: string; firstSeenAt: string; lastSeenAt: string; countsUntil: string }[];
  tokens: {
    id: string;
    name: string;
    hint: string;
    createdAt: string;
    lastUsedAt: string | null;
    revokedAt: string | null;
  }[];
}
