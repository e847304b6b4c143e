package config

import "sort"

// Conf is a Hadoop configuration: property name -> value, both strings as in
// the XML. Names are trimmed as Hadoop's Configuration.set/get trim them;
// values are kept exactly as given (the getters trim them when they read a
// number, and an ACL of " " means "nobody"). The zero value is an empty
// configuration.
type Conf struct {
	props map[string]string
}

// New returns an empty configuration.
func New() *Conf { return &Conf{props: map[string]string{}} }

// FromMap returns a configuration holding a copy of m. Names are trimmed;
// if two names trim to the same one, the one that sorts last wins.
func FromMap(m map[string]string) *Conf {
	c := &Conf{props: make(map[string]string, len(m))}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c.Set(k, m[k])
	}
	return c
}

// Get returns the value of key (trimmed as a name) and whether it is set.
func (c *Conf) Get(key string) (string, bool) {
	if c == nil {
		return "", false
	}
	v, ok := c.props[javaTrim(key)]
	return v, ok
}

// Set sets key (trimmed) to value (kept as is). A name that is empty after
// trimming is ignored: no Hadoop configuration file can carry it.
func (c *Conf) Set(key, value string) {
	k := javaTrim(key)
	if k == "" {
		return
	}
	if c.props == nil {
		c.props = map[string]string{}
	}
	c.props[k] = value
}

// Unset removes key (trimmed).
func (c *Conf) Unset(key string) { delete(c.props, javaTrim(key)) }

// Keys returns the property names, sorted.
func (c *Conf) Keys() []string {
	if c == nil {
		return nil
	}
	keys := make([]string, 0, len(c.props))
	for k := range c.props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Map returns a copy of the properties.
func (c *Conf) Map() map[string]string {
	m := make(map[string]string, c.Len())
	if c != nil {
		for k, v := range c.props {
			m[k] = v
		}
	}
	return m
}

// Clone returns an independent copy.
func (c *Conf) Clone() *Conf { return &Conf{props: c.Map()} }

// Len returns the number of properties.
func (c *Conf) Len() int {
	if c == nil {
		return 0
	}
	return len(c.props)
}
