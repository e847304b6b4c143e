// Package yaml holds the file yarnplay's browser build adds to its trimmed
// copy of yaml.v3 (build/site/trims.go): the package is named as yaml.v3's
// is, so that the file goes in as it is here. Natively it is only tested.
// It is Go 1.16, as yaml.v3's go.mod says.
package yaml

// matcher is a regular expression's MatchString written by hand: the
// trimmed yaml.v3 declares its two regular expressions as matchers
// (yamlStyleFloat = matcher(matchesYAMLStyleFloat)), so that package regexp,
// which nothing else in app.wasm needs, stays out of it (some 240 KB of
// code, about 100 KB gzipped, with yarnplay's own uses gone).
type matcher func(string) bool

// MatchString says whether s matches.
func (m matcher) MatchString(s string) bool { return m(s) }

// matchesYAMLStyleFloat is yaml.v3's yamlStyleFloat,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ : a float as YAML
// 1.2 writes it.
func matchesYAMLStyleFloat(s string) bool {
	i := sign(s, 0)
	if i < len(s) && s[i] == '.' {
		if i = digits(s, i+1); i < 0 {
			return false
		}
	} else {
		if i = digits(s, i); i < 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			for i++; i < len(s) && isDigit(s[i]); i++ {
			}
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i = digits(s, sign(s, i+1))
	}
	return i == len(s)
}

// matchesBase60Float is yaml.v3's base60float,
// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$ : a YAML 1.1
// sexagesimal float (190:20:30.15), which its encoder quotes.
func matchesBase60Float(s string) bool {
	i := sign(s, 0)
	if i >= len(s) || !isDigit(s[i]) {
		return false
	}
	for i++; i < len(s) && (isDigit(s[i]) || s[i] == '_'); i++ {
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		// One digit, or two whose first is 0 to 5: a second digit
		// after a 6 to 9 could not be followed by anything the
		// expression allows.
		if i+1 >= len(s) || !isDigit(s[i+1]) {
			return false
		}
		i += 2
		if i < len(s) && isDigit(s[i]) {
			if s[i-1] > '5' {
				return false
			}
			i++
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && (isDigit(s[i]) || s[i] == '_'); i++ {
		}
	}
	return i == len(s)
}

// sign skips an optional + or - at s[i].
func sign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

// digits skips one or more ASCII digits from s[i], or returns -1 if there
// are none there.
func digits(s string, i int) int {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
