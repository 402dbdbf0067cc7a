/**
 * Free mailbox providers anyone can sign up to, so an address there says nothing about an
 * organisation. Matched on the exact ASCII domain (a company's own `mail.example.com` is not
 * public just because it has "mail" in it).
 */
const PUBLIC_PROVIDERS: ReadonlySet<string> = new Set([
  // Google, Microsoft, Yahoo, Apple, AOL
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'live.com',
  'live.com.au',
  'msn.com',
  'outlook.com.au',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.com.au',
  'yahoo.co.nz',
  'yahoo.co.jp',
  'yahoo.fr',
  'ymail.com',
  'rocketmail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  // privacy-focused and independent
  'proton.me',
  'protonmail.com',
  'pm.me',
  'tutanota.com',
  'tuta.io',
  'fastmail.com',
  'hey.com',
  'zoho.com',
  'mail.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  // regional
  'bigpond.com',
  'bigpond.net.au',
  'optusnet.com.au',
  'iinet.net.au',
  'xtra.co.nz',
  'yandex.ru',
  'yandex.com',
  'mail.ru',
  'qq.com',
  '163.com',
  '126.com',
  'naver.com',
  'daum.net',
  'rediffmail.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  't-online.de',
  'comcast.net',
  'att.net',
  'verizon.net',
  'btinternet.com',
  'sky.com',
]);

export function isPublicProvider(asciiDomain: string): boolean {
  return PUBLIC_PROVIDERS.has(asciiDomain);
}
