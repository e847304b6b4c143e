// Package app holds the files yarnplay's browser build adds to its trimmed
// copy of go-app's package app (build/site/trims.go): the package is
// named as go-app's is, so that each file goes in as it is here. Natively
// it is only tested.
package app

import "math/rand/v2"

// newUUID returns a random (version 4) UUID in its usual text form, as
// go-app's calls of github.com/google/uuid's NewString did: the device ID
// and the broadcast store's ID, neither of them a secret. It draws from
// math/rand/v2's generator, which Go's runtime seeds from the browser's
// crypto.getRandomValues: package uuid reads crypto/rand, which brings
// the FIPS 140 module (AES, SHA-2, SHA-3, HMAC, a DRBG) and with MD5 and
// SHA-1 for its other versions some 175 KB of code into app.wasm, 55 KB
// gzipped.
func newUUID() string {
	var b [16]byte
	for i := 0; i < len(b); i += 8 {
		v := rand.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // the variant of RFC 9562
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&0x0f])
	}
	return string(out)
}
