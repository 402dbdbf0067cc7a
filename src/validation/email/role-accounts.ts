/**
 * Mailboxes that belong to a function or a group rather than a person (RFC 2142 names such as
 * postmaster, abuse and hostmaster, plus the common business ones). Compared case-insensitively
 * after dropping a `+tag` subaddress and the separators people put inside them (`no-reply`).
 */
const ROLE_ACCOUNTS: ReadonlySet<string> = new Set([
  'abuse', 'accounting', 'accounts', 'admin', 'administrator', 'billing', 'careers', 'contact',
  'customercare', 'customerservice', 'devnull', 'dns', 'enquiries', 'enquiry', 'feedback',
  'finance', 'ftp', 'hello', 'help', 'helpdesk', 'hostmaster', 'hr', 'info', 'inquiries',
  'inquiry', 'it', 'jobs', 'legal', 'mail', 'mailerdaemon', 'marketing', 'media', 'news',
  'newsletter', 'noc', 'noreply', 'nobody', 'office', 'orders', 'postmaster', 'press',
  'privacy', 'recruitment', 'reception', 'root', 'sales', 'security', 'service', 'shop',
  'support', 'sysadmin', 'team', 'tech', 'usenet', 'uucp', 'webmaster', 'www',
]);

export function isRoleAccount(account: string): boolean {
  const base = account.toLowerCase().split('+')[0] ?? '';
  return ROLE_ACCOUNTS.has(base) || ROLE_ACCOUNTS.has(base.replace(/[._-]/g, ''));
}
