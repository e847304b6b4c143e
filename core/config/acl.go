package config

import "strings"

// ACL is a parsed access control list, as Hadoop's AccessControlList reads
// "user1,user2 group1,group2": users before the first space, groups after
// it; "*" means everyone and " " (or "") means nobody.
type ACL struct {
	// All is true when everyone is allowed ("*").
	All bool
	// Users are the allowed users, in the order written, without duplicates
	// (empty when All).
	Users []string
	// Groups are the allowed groups, in the order written, without
	// duplicates (empty when All).
	Groups []string
	// Raw is the text the ACL was parsed from.
	Raw string
}

// ParseACL parses s exactly as AccessControlList(String) does: s is split
// at its first space into a users part and a groups part; if either part,
// trimmed, is "*", everyone is allowed; otherwise each part is trimmed, split
// at commas and newlines, each entry trimmed, empty entries and duplicates
// dropped. A "*" inside a list ("alice,*") is a literal name, as in Hadoop.
func ParseACL(s string) ACL {
	a := ACL{Raw: s}
	users, groups, hasGroups := strings.Cut(s, " ")
	if javaTrim(users) == "*" || hasGroups && javaTrim(groups) == "*" {
		a.All = true
		return a
	}
	a.Users = trimmedStringCollection(users)
	if hasGroups {
		a.Groups = trimmedStringCollection(groups)
	}
	return a
}

// trimmedStringCollection is StringUtils.getTrimmedStringCollection: the
// trimmed text split at "\s*[,\n]\s*", empty strings and duplicates removed,
// first occurrence order kept.
func trimmedStringCollection(s string) []string {
	t := javaTrim(s)
	if t == "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == '\n' }) {
		p := strings.Trim(part, " \t\n\v\f\r")
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// Allows reports whether user, a member of groups, is on the list
// (AccessControlList.isUserInList).
func (a ACL) Allows(user string, groups []string) bool {
	if a.All {
		return true
	}
	for _, u := range a.Users {
		if u == user {
			return true
		}
	}
	for _, g := range a.Groups {
		for _, ug := range groups {
			if g == ug {
				return true
			}
		}
	}
	return false
}

// String returns the ACL as AccessControlList.getAclString writes it: "*"
// for everyone, else the users joined by commas, a space, and the groups
// joined by commas (so nobody is " " and a single user "alice" is "alice ").
func (a ACL) String() string {
	if a.All {
		return "*"
	}
	return strings.Join(a.Users, ",") + " " + strings.Join(a.Groups, ",")
}
