package app

import "github.com/maxence-charriere/go-app/v10/pkg/errors"

// errNoCrypto is what encrypt and decrypt return: yarnplay's browser
// build leaves go-app's encryption out (Context.Encrypt and Decrypt, AES-GCM
// keyed by the device ID, which yarnplay never calls: crypto/aes and
// crypto/cipher's GCM, 61 KB of app.wasm, 11.5 KB gzipped). The trimmed
// go-app builds its crypto.go for !wasm only (build/site/trims.go).
var errNoCrypto = errors.New("encryption is left out of yarnplay's browser build")

func encrypt(key string, v []byte) ([]byte, error) { return nil, errNoCrypto }

func decrypt(key string, v []byte) ([]byte, error) { return nil, errNoCrypto }
