/**
 * Which keys carry which fact, per registry family. Keys are compared in their
 * normalised form (see normaliseKey: lower-case, "_"/"-" → space, no dot leaders),
 * each part of a bilingual key ("Data de registo / Creation Date") on its own, and
 * also qualified by the header they sit under ("registrar" + "name" → "registrar name").
 *
 * A fact is read from the first tier that yields a valid value; within a tier the
 * first such entry in the answer wins. Tiers put a registry's precise wording
 * ("registry expiry date") before loose ones ("expire") that some registries use
 * for other things.
 */

export type FieldTiers = readonly (readonly string[])[];

export const CREATED_KEYS: FieldTiers = [
  [
    'creation date',
    'created',
    'created on',
    'created date',
    'create date',
    'domain created',
    'domain create date',
    'domain creation date',
    'registered on',
    'registration date',
    'domain registration date',
    'registered date',
    'date registered',
    'domain registered',
    'first registration date',
    'record created',
    'record created on',
    'registration time',
    'domain name commencement date',
    'entry created',
    'activated on',
    'domain record activated',
    'created at',
    'fecha de registro',
    'fecha de creacion',
    'date approved',
    'data de registo',
    'registered',
    'registration',
    'assigned',
    'commencement date',
    'domain created on',
    'creation',
    'registrated',
    'domain registration',
    'registration date and time',
    'created time',
    'date de creation',
    'domain dateregistered',
    'activation date',
    'fecha de alta',
    'activated',
    // ATI (.tn) prints the key misspelt: "Acivated : 2013-12-13 22:15:08"
    'acivated',
    // JPRS (Japanese output), KISA, TWNIC, CNNIC
    '登録年月日',
    '등록일',
    '注册时间',
    '註冊日期',
    '创建时间',
  ],
];

export const UPDATED_KEYS: FieldTiers = [
  [
    'updated date',
    'last updated',
    'last updated on',
    'last update',
    'last updated date',
    'last modified',
    'last modified date',
    'last modified on',
    'modified',
    'modified date',
    'modification date',
    'update date',
    'updated',
    'updated on',
    'domain last updated date',
    'domain last updated',
    'record last updated',
    'record last updated on',
    'record changed on',
    'entry updated',
    'domain datelastmodified',
    'date last modified',
    'last changed',
    'changed on',
    'fecha de ultima actualizacion',
    'last updated at',
    'domain updated date',
    'domain updated',
    'domain last modified',
    'record last modified',
    'date modified',
    'last modification date',
    'domain record last updated',
    'ultima actualizacion',
    '最終更新',
    '최근 정보 변경일',
  ],
];

/**
 * RIPE-style audit lines ("changed: registrar AT ns.il 19990605", one per change, oldest first): the
 * domain's last update is the latest of them, read only where no registry states an update date.
 */
export const CHANGE_LOG_KEYS: FieldTiers = [['changed', 'last change']];

export const EXPIRES_KEYS: FieldTiers = [
  [
    'registry expiry date',
    'expiration date',
    'registrar registration expiration date',
    'expiry date',
    'expires',
    'expires on',
    'expire date',
    'expiration time',
    'domain expiration date',
    'domain expiry date',
    'paid till',
    'expire',
    'expired',
    'expiry',
    'exp date',
    'valid until',
    'validity',
    'record will expire on',
    'record expires on',
    'record expires',
    'record expired',
    'domain currently expires',
    'fecha de vencimiento',
    'fecha de expiracion',
    'data de expiracao',
    'date renewal',
    'renewal date',
    'renewal',
    'expires at',
    'domain expires',
    'registration expiration date',
    'expiration',
    'valid till',
    'domain expires on',
    "date d'expiration",
    'expiration date and time',
    'domain datebilleduntil',
    'billed until',
    // JPRS, KISA, TWNIC, CNNIC
    '有効期限',
    '사용 종료일',
    '到期时间',
    '到期日期',
    '过期时间',
  ],
];

export const REGISTRAR_KEYS: FieldTiers = [
  // The organisation line of a registrar object names it where its first line is a handle: UAEPP
  // "registrar: ua.imena" over "organization: "Internet Invest" Ltd", .it "Organization:" over "Name: REG-ID".
  ['registrar organization', 'registrar organisation', 'registrar organization name'],
  [
    'registrar',
    'sponsoring registrar',
    'registrar name',
    'sponsoring registrar organization',
    'registration service provider',
    'current registrar',
    'current registar',
    'registrar of record',
    'authorized agency',
    'registrado por',
    'agente registrador',
    // KISA "등록대행자" (registration agent), CNNIC "注册商" (registrar)
    '등록대행자',
    '注册商',
  ],
  // GoDaddy's "Registered through:"; Nominet prints it for the reseller, after "Registrar:".
  ['registered through'],
];

export const NAME_SERVER_KEYS: FieldTiers = [
  [
    'name server',
    'name servers',
    'nameserver',
    'nameservers',
    'nserver',
    'ns',
    'dns',
    'dns server',
    'dns servers',
    'domain servers',
    'domain nameservers',
    'domain name servers',
    'domain servers in listed order',
    'domain name servers listed in order',
    'name servers information',
    'name server information',
    'nameservers information',
    'primary server',
    'secondary server',
    'primary server hostname',
    'secondary server hostname',
    'primary name server',
    'secondary name server',
    'current nameservers',
    'servers',
    'ns hostname',
    'ns name',
    'hostname',
    'host name',
    'name server hostname',
    'domain server',
    'server hostname',
    'name server host',
    'nameserver host',
    'name servers in listed order',
    'dns hostname',
    'servidor dns',
    'servidores dns',
    'servidores de nombres',
    'serveur de noms',
    'serveurs de noms',
    // NIC Uruguay and NIC Venezuela: "Servidor(es) de Nombres de Dominio:" over a list of "- host" lines
    'servidor(es) de nombres de dominio',
    'servidor de nombres de dominio',
    'servidores de nombres de dominio',
    // KISA "호스트이름" (host name), JPRS, CNNIC, TWNIC
    '호스트이름',
    'ネームサーバ',
    '域名服务器',
    '域名伺服器',
  ],
];

export const DOMAIN_NAME_KEYS: FieldTiers = [
  [
    'domain name',
    'domain',
    'domainname',
    'domain name ascii',
    'nombre de dominio',
    'nome de dominio',
    '도메인이름',
    'ドメイン名',
    '域名',
    '網域名稱',
  ],
  ['query', 'object', 'domain information'],
];

/** Keys that name the next WHOIS server to ask (IANA "refer:", ICANN "Registrar WHOIS Server:"). */
export const REFERRAL_KEYS: FieldTiers = [
  ['refer', 'registrar whois server', 'whois server', 'referralserver', 'referral server', 'whois'],
];

/**
 * Values that carry an expiry date where no key does: UANIC "status: OK-UNTIL 20131218000000".
 */
export const EXPIRES_IN_VALUE: readonly RegExp[] = [
  /\bok-until\s+(\d{8,14})\b/i,
  // JPRS organisational names (co.jp, ne.jp, ac.jp…): "[State] Connected (2024/06/30)", the date the
  // registration runs until; general-use names print "[Expires on]" instead.
  /^(?:connected|registered|active)\s*\((\d{4}\/\d{1,2}\/\d{1,2})\)$/i,
];

/** Paragraphs that describe another object: Verisign's "Server Name:" host records in a multiple-match answer. */
export const OTHER_OBJECT_CLASSES = /^server name$/;

/**
 * Objects printed beside the domain, each with its own record dates: the registrar (AFNIC's
 * "registrar:" object and its "registered:", .ee and .sk "Registrar:" blocks with "changed:" or
 * "Created:"), name-server and key sets (.ee "Name servers:" and "DNSSEC:", FRED "nsset:" and
 * "keyset:", NIC.AR "nserver:"). A paragraph opened by one of these that states an expiry is the
 * domain's own all the same (NIC.SL prints "Registrar:" first, then the domain's dates).
 */
export const SIDE_OBJECT_CLASSES = /^(?:registrar|name servers?|nameservers?|nservers?|nsset|keyset|dnssec)$/;

/** Sections about the answer itself: NIC.LV's "[Whois]" footer with the database's own "Updated:" time. */
export const ANSWER_META_SECTIONS = /^(?:whois|database|query)$/;

/**
 * The one answer section whose "Updated:" stands for the domain's when the domain's own block states no
 * change: NIC.LV prints no change date of a domain any more (older answers had "Changed:" in "[Domain]",
 * which wins), and its "[Whois]" "Updated:" is the date it gives as the record's (issue 32).
 */
export const UPDATED_FALLBACK_SECTION = 'whois';

/** Headers and RPSL classes of contact objects, whose dates and names are not the domain's. */
export const CONTACT_CONTEXT = new RegExp(
  String.raw`(?:^|\s)(?:` +
    [
      'registrant',
      'admin',
      'administrative',
      'tech',
      'technical',
      'billing',
      'zone',
      'contact',
      'contacts',
      'holder',
      'owner',
      'person',
      'role',
      'nic hdl',
      'handle',
      'reseller',
      'abuse',
      '책임자', // KISA: administrative contact
      '등록인', // KISA: registrant
    ].join('|') +
    String.raw`)(?:\s|$|')`,
);

/**
 * Date keys that contact objects carry for their own record (RIPE-style "changed:",
 * "created:", "last-modified:"). Under a paragraph that opens as a contact object
 * (.ee "Registrant:", AFNIC "nic-hdl:") they are the contact's, not the domain's;
 * keys that name the domain ("Domain Name Commencement Date") are kept wherever they
 * stand, as HKIRC prints them right after the registrant's lines.
 */
export const CONTACT_OBJECT_DATE_KEYS: ReadonlySet<string> = new Set([
  'changed',
  'created',
  'last modified',
  'modified',
  'registered',
  'updated',
  'last update',
  'last updated',
  'last changed',
  'creation date',
  'updated date',
]);
