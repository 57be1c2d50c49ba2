import {
  canonicalReferralCode,
  createReferralCodeRepository,
} from '#server/features/trials/referral-code-repository.ts';
import { AdminError, EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import { formatTime, printTable } from '#server/platform/commands/command-io.ts';

const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,63}$/;

const codeArgument = { name: 'code', description: 'The referral code (case-insensitive)' };

const create: AdminCommand = {
  name: 'referral-codes create',
  summary: 'Create a referral code for trial requests',
  details:
    'Codes are 3 to 64 letters, digits, "-" or "_", stored upper case and matched case-insensitively. An existing code is not changed (disable it, or pick another).',
  arguments: [codeArgument],
  options: { note: { type: 'string', description: 'Who or what the code is for' } },
  async run(context, { args, options }) {
    const code = canonicalReferralCode(args[0] ?? '');
    if (!CODE_PATTERN.test(code)) {
      throw new AdminError(
        `"${args[0]}" is not a valid code: use 3 to 64 letters, digits, "-" or "_", starting with a letter or digit.`,
        2,
      );
    }
    const note = typeof options.note === 'string' ? options.note.trim() || null : null;
    const repository = createReferralCodeRepository(await context.database());
    if (await repository.find(code)) {
      throw new AdminError(`The referral code ${code} exists already.`);
    }
    await repository.save({ code, note });
    context.io.out(`Created referral code ${code}${note ? ` (${note})` : ''}.`);
    return EXIT_OK;
  },
};

const list: AdminCommand = {
  name: 'referral-codes list',
  summary: 'List referral codes',
  options: {
    all: { type: 'boolean', description: 'Include disabled codes' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const codes = await createReferralCodeRepository(await context.database()).list({
      includeDisabled: options.all === true,
    });
    if (options.json === true) {
      context.io.out(JSON.stringify(codes, null, 2));
      return EXIT_OK;
    }
    if (codes.length === 0) {
      context.io.out(options.all === true ? 'No referral codes.' : 'No active referral codes.');
      return EXIT_OK;
    }
    printTable(
      context,
      ['CODE', 'STATE', 'CREATED', 'NOTE'],
      codes.map((code) => [
        code.code,
        code.disabled ? 'disabled' : 'active',
        formatTime(code.createdAt),
        code.note ?? '',
      ]),
    );
    return EXIT_OK;
  },
};

const disable: AdminCommand = {
  name: 'referral-codes disable',
  summary: 'Disable a referral code (trial requests with it are refused)',
  arguments: [codeArgument],
  async run(context, { args }) {
    const repository = createReferralCodeRepository(await context.database());
    const existing = await repository.find(args[0] ?? '');
    if (!existing)
      throw new AdminError(`There is no referral code ${canonicalReferralCode(args[0] ?? '')}.`);
    if (existing.disabled) {
      context.io.out(`The referral code ${existing.code} was disabled already.`);
      return EXIT_OK;
    }
    await repository.save({ code: existing.code, disabled: true, note: existing.note });
    context.io.out(`Disabled referral code ${existing.code}.`);
    return EXIT_OK;
  },
};

/** Referral code commands (listed by the domain's manifest, decision 169). */
export const referralCodeAdminCommands: readonly AdminCommand[] = [create, list, disable];
