// Bad credentials, forged from a seeded source and from good ones: a good token cut short, signed
// by a stranger, expired or not yet valid, for another audience or issuer, bound to objects that
// are gone; static tokens with one character changed; garbage and Authorization headers of other
// schemes. Each names its kind, so that a failure says which forgery got through.
import { createHmac, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { uuid, type Random } from '../../actors/api/env.ts';

export interface BadCredential {
  kind: string;
  /** The whole Authorization header. */
  authorization: string;
  /** The bearer token, when the header is `Bearer <token>` (what a bus client can carry too). */
  token?: string;
}

/** What forgeries start from: good tokens, the server's signing key and its id, the time and a victim's claims. */
export interface ForgeInputs {
  /** A good bound token of an existing service account: its claims are the template of every forged JWT. */
  goodToken: string;
  staticTokens: string[];
  signingKey: KeyObject;
  kid: string;
  issuer: string;
  nowSeconds: number;
  /** TokenRequest tokens whose service account, pod, secret or node has since been deleted. */
  orphaned: string[];
}

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VISIBLE = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');

const pick = <T>(r: Random, xs: readonly T[] | string): T => xs[Math.floor(r.next() * xs.length)] as T;
const between = (r: Random, lo: number, hi: number) => lo + Math.floor(r.next() * (hi - lo + 1));
const text = (r: Random, alphabet: string, n: number) => Array.from({ length: n }, () => pick<string>(r, alphabet)).join('');
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** A compact JWS of `claims` under `header`, signed by `key` (RS256 or ES256), or by an HMAC secret (HS256). */
export function signJwt(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject | Buffer): string {
  const input = `${b64(header)}.${b64(claims)}`;
  let signature: Buffer;
  if (header.alg === 'HS256') signature = createHmac('sha256', key as Buffer).update(input).digest();
  else if (header.alg === 'ES256') signature = sign('sha256', Buffer.from(input), { key: key as KeyObject, dsaEncoding: 'ieee-p1363' });
  else signature = sign('sha256', Buffer.from(input), key as KeyObject);
  return `${input}.${signature.toString('base64url')}`;
}

export const claimsOf = (token: string): Record<string, any> => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')); // eslint-disable-line @typescript-eslint/no-explicit-any

const bearer = (kind: string, token: string): BadCredential => ({ kind, authorization: `Bearer ${token}`, token });

export class Forge {
  readonly #template: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly #stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  readonly #strangerEc = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

  constructor(readonly r: Random, readonly inputs: ForgeInputs) {
    this.#template = claimsOf(inputs.goodToken);
  }

  /** The template's claims changed by `change`, signed by the server's own key: good but for the change. */
  #ours(change: (c: Record<string, any>) => void): string { // eslint-disable-line @typescript-eslint/no-explicit-any
    const c = structuredClone(this.#template);
    change(c);
    return signJwt({ alg: 'RS256', kid: this.inputs.kid }, c, this.inputs.signingKey);
  }

  /** The good token's claims, signed again by the server's key: the control that the forge itself signs well. */
  resigned(): string {
    return this.#ours(() => {});
  }

  truncated(): BadCredential {
    const whole = pick<string>(this.r, [this.inputs.goodToken, this.inputs.goodToken, ...this.inputs.staticTokens]);
    return bearer('truncated', whole.slice(0, between(this.r, 1, whole.length - 1)));
  }

  wrongSignature(): BadCredential {
    const k = this.r.next();
    if (k < 0.2) {
      // The good token with one character of its signature changed.
      const [h, p, s] = this.inputs.goodToken.split('.') as [string, string, string];
      const at = between(this.r, 0, s.length - 2); // the last character may carry padding bits only
      const swapped = s[at] === 'A' ? 'B' : 'A';
      return bearer('wrong signature', `${h}.${p}.${s.slice(0, at)}${swapped}${s.slice(at + 1)}`);
    }
    const claims = structuredClone(this.#template);
    claims.jti = uuid(this.r);
    if (k < 0.4) return bearer('wrong signature', signJwt({ alg: 'ES256', kid: this.inputs.kid }, claims, this.#strangerEc));
    const kid = pick(this.r, [this.inputs.kid, 'stranger', undefined]);
    return bearer('wrong signature', signJwt({ alg: 'RS256', ...(kid ? { kid } : {}) }, claims, this.#stranger));
  }

  expired(): BadCredential {
    // Past the minute of leeway, by two minutes to ten days.
    const ago = between(this.r, 120, 864_000);
    return bearer('expired', this.#ours((c) => Object.assign(c, { exp: this.inputs.nowSeconds - ago, iat: this.inputs.nowSeconds - ago - 3600, nbf: this.inputs.nowSeconds - ago - 3600 })));
  }

  notYetValid(): BadCredential {
    const ahead = between(this.r, 120, 864_000);
    const issuedAhead = this.r.next() < 0.5;
    return bearer('not yet valid', this.#ours((c) => Object.assign(c, { nbf: this.inputs.nowSeconds + ahead, exp: this.inputs.nowSeconds + ahead + 3600,
      ...(issuedAhead ? { iat: this.inputs.nowSeconds + ahead } : {}) })));
  }

  wrongAudience(): BadCredential {
    // (A token naming no audience is for the API's own, as the real server reads it: not a wrong one.)
    const aud = pick(this.r, [[`https://elsewhere.example/${text(this.r, TOKEN_CHARS, 6)}`], ['api'], [`${this.inputs.issuer}/other`], text(this.r, TOKEN_CHARS, 8)]);
    return bearer('wrong audience', this.#ours((c) => { c.aud = aud; }));
  }

  wrongIssuer(): BadCredential {
    const iss = pick(this.r, [`https://issuer-${text(this.r, TOKEN_CHARS, 5)}.example`, `${this.inputs.issuer}.evil`, `${this.inputs.issuer}/`, '', 'kubernetes']);
    return bearer('wrong issuer', this.#ours((c) => { c.iss = iss; }));
  }

  /** A token naming objects that are gone: a TokenRequest token whose object was deleted, or claims naming a pod, secret, node or uid that is not stored. */
  boundToDeleted(): BadCredential {
    const k = this.r.next();
    if (k < 0.4) return bearer('bound to a deleted object', pick(this.r, this.inputs.orphaned));
    const ref = () => ({ name: `gone-${text(this.r, 'abcdefghij', 6)}`, uid: uuid(this.r) });
    if (k < 0.8) {
      const what = pick(this.r, ['pod', 'secret', 'node', 'serviceaccount-uid']);
      return bearer('bound to a deleted object', this.#ours((c) => {
        if (what === 'serviceaccount-uid') c['kubernetes.io'].serviceaccount.uid = uuid(this.r);
        else c['kubernetes.io'][what] = ref();
      }));
    }
    // A legacy (secret-based) token whose Secret is not stored.
    const t = this.#template['kubernetes.io'];
    const prefix = 'kubernetes.io/serviceaccount';
    return bearer('bound to a deleted object', signJwt({ alg: 'RS256', kid: this.inputs.kid }, { iss: 'kubernetes/serviceaccount', sub: this.#template.sub,
      [`${prefix}/namespace`]: t.namespace, [`${prefix}/secret.name`]: ref().name, [`${prefix}/service-account.name`]: t.serviceaccount.name,
      [`${prefix}/service-account.uid`]: t.serviceaccount.uid }, this.inputs.signingKey));
  }

  flippedStatic(): BadCredential {
    const good = pick<string>(this.r, this.inputs.staticTokens);
    const at = between(this.r, 0, good.length - 1);
    const others = TOKEN_CHARS.replace(good[at]!, '');
    return bearer('static token with a flipped character', `${good.slice(0, at)}${pick<string>(this.r, others)}${good.slice(at + 1)}`);
  }

  garbage(): BadCredential {
    const k = this.r.next();
    if (k < 0.3) return bearer('garbage', text(this.r, VISIBLE, between(this.r, 1, 300)));
    if (k < 0.45) return bearer('garbage', [0, 1, 2].map(() => text(this.r, TOKEN_CHARS, between(this.r, 0, 80))).join('.'));
    if (k < 0.55) return bearer('garbage', `${b64({ alg: 'none' })}.${b64(this.#template)}.`);
    // The classic confusion: HMAC keyed with the public key's bytes.
    if (k < 0.65) return bearer('garbage', signJwt({ alg: 'HS256', kid: this.inputs.kid }, this.#template,
      Buffer.from(createPublicKey(this.inputs.signingKey).export({ type: 'spki', format: 'pem' }))));
    if (k < 0.75) return bearer('garbage', b64(this.#template));
    const token = pick<string>(this.r, this.inputs.staticTokens);
    const header = pick(this.r, [`Basic ${Buffer.from(`admin:${token}`).toString('base64')}`, 'Bearer', 'Bearer ', `Bearer ${token} ${token}`,
      `Token ${token}`, `${token}`, `Bearer ${token}x`, `Digest username="admin"`]);
    return { kind: 'garbage', authorization: header };
  }

  /** `n` forgeries of every kind, shuffled by the seeded source. */
  all(n: number): BadCredential[] {
    const makers = [() => this.truncated(), () => this.wrongSignature(), () => this.expired(), () => this.notYetValid(), () => this.wrongAudience(),
      () => this.wrongIssuer(), () => this.boundToDeleted(), () => this.flippedStatic(), () => this.garbage()];
    const out = makers.flatMap((make) => Array.from({ length: n }, make));
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.r.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}
