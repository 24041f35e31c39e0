/** The http_fetch address policy: classes of IPv4, IPv6 and IPv4-mapped addresses. */
import { type AddressClass, classifyAddress, isAllowed } from '../../activities/tools/builtin/address-policy';

const CASES: Record<AddressClass, string[]> = {
  public: [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ],
  loopback: [
    '127.0.0.1',
    '127.0.0.0',
    '127.1.2.3',
    '127.255.255.255',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '64:ff9b::127.0.0.1',
  ],
  private: [
    '10.0.0.0',
    '10.0.0.5',
    '10.255.255.255',
    '172.16.0.0',
    '172.20.1.1',
    '172.31.255.255',
    '192.168.0.1',
    '192.168.255.255',
    '100.64.0.0',
    '100.100.100.100',
    '100.127.255.255',
    'fc00::',
    'fd12:3456:789a::1',
    'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fec0::1',
    '::ffff:10.0.0.5',
    '::ffff:a00:5',
    '::ffff:192.168.1.1',
    '::ffff:100.64.0.1',
  ],
  'link-local': [
    '169.254.0.0',
    '169.254.169.254',
    '169.254.255.255',
    'fe80::',
    'fe80::1',
    'fe80::1%eth0',
    'febf:ffff::1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
  ],
  reserved: [
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '192.0.0.8',
    '::',
    '0:0:0:0:0:0:0:0',
    '::ffff:0.0.0.0',
    '::ffff:255.255.255.255',
    '::ffff:224.0.0.1',
    '::127.0.0.1',
    'ff02::1',
    'ff05::2',
    '2001:db8::1',
    '2001:0:4136:e378::1',
    '2002:7f00:1::1',
    '2002:a00:1::1',
    '100::1',
    '4000::1',
  ],
};

const ALL = Object.entries(CASES).flatMap(([addressClass, ips]) => ips.map((ip) => [ip, addressClass] as const));

test.each(ALL)('%s is %s', (ip, addressClass) => {
  expect(classifyAddress(ip)).toBe(addressClass);
});

test('mapped, hex-mapped and plain IPv4 forms of one address agree', () => {
  for (const [v4, mapped, hex] of [
    ['127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['10.1.2.3', '::ffff:10.1.2.3', '::ffff:a01:203'],
    ['169.254.169.254', '::ffff:169.254.169.254', '::FFFF:A9FE:A9FE'],
    ['8.8.4.4', '::ffff:8.8.4.4', '::ffff:808:404'],
  ] as const) {
    expect(classifyAddress(mapped)).toBe(classifyAddress(v4));
    expect(classifyAddress(hex)).toBe(classifyAddress(v4));
  }
});

test('classifyAddress refuses host names and malformed addresses', () => {
  for (const text of ['localhost', 'example.com', '', '1.2.3', '256.0.0.1', '::ffff::1', '[::1]']) {
    expect(() => classifyAddress(text)).toThrow('is not an IP address');
  }
});

test('public addresses are always allowed, reserved ones never', () => {
  for (const ip of CASES.public) expect(isAllowed(ip, [])).toBe(true);
  for (const ip of CASES.reserved) expect(isAllowed(ip, ['loopback', 'private', 'link-local'])).toBe(false);
});

test('loopback, private and link-local addresses are allowed only when their class is', () => {
  const classes = ['loopback', 'private', 'link-local'] as const;
  for (const addressClass of classes) {
    for (const ip of CASES[addressClass]) {
      expect(isAllowed(ip, [])).toBe(false);
      expect(isAllowed(ip, [addressClass])).toBe(true);
      expect(
        isAllowed(
          ip,
          classes.filter((other) => other !== addressClass),
        ),
      ).toBe(false);
    }
  }
});

test('isAllowed fails closed on anything that is not an IP address', () => {
  for (const text of ['localhost', 'metadata.google.internal', '', 'not an ip']) {
    expect(isAllowed(text, ['loopback', 'private', 'link-local'])).toBe(false);
  }
});
