package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseACL(t *testing.T) {
	for _, tc := range []struct {
		in     string
		all    bool
		users  []string
		groups []string
		str    string
	}{
		{in: "*", all: true, str: "*"},
		{in: " * ", all: true, str: "*"},
		{in: "* ", all: true, str: "*"},
		{in: " *", all: true, str: "*"}, // groups part "*"
		{in: "alice *", all: true, str: "*"},
		{in: "alice,* ", users: []string{"alice", "*"}, str: "alice,* "}, // "*" inside a list is a name
		{in: " ", str: " "},
		{in: "", str: " "},
		{in: "alice", users: []string{"alice"}, str: "alice "},
		{in: "alice,bob", users: []string{"alice", "bob"}, str: "alice,bob "},
		{in: " alice , bob ,, alice", groups: []string{"alice", "bob"}, str: " alice,bob"}, // leading space: all groups
		{in: "alice,bob,,alice g1, g2 ,g1", users: []string{"alice", "bob"}, groups: []string{"g1", "g2"}, str: "alice,bob g1,g2"},
		{in: "alice, bob", users: []string{"alice"}, groups: []string{"bob"}, str: "alice bob"}, // the first space splits
		{in: " g1", groups: []string{"g1"}, str: " g1"},
		{in: "alice g1 g2", users: []string{"alice"}, groups: []string{"g1 g2"}, str: "alice g1 g2"},
		{in: "a\nb c", users: []string{"a", "b"}, groups: []string{"c"}, str: "a,b c"},
		{in: "alice  g1", users: []string{"alice"}, groups: []string{"g1"}, str: "alice g1"},
	} {
		a := ParseACL(tc.in)
		require.Equal(t, tc.in, a.Raw)
		require.Equal(t, tc.all, a.All, "%q", tc.in)
		require.Equal(t, tc.users, a.Users, "%q users", tc.in)
		require.Equal(t, tc.groups, a.Groups, "%q groups", tc.in)
		require.Equal(t, tc.str, a.String(), "%q string", tc.in)
	}
}

func TestACLAllows(t *testing.T) {
	acl := ParseACL("alice,bob finance,ops")
	require.True(t, acl.Allows("alice", nil))
	require.True(t, acl.Allows("carol", []string{"dev", "ops"}))
	require.False(t, acl.Allows("carol", []string{"dev"}))
	require.False(t, acl.Allows("Alice", nil), "names are case-sensitive")
	require.True(t, ParseACL("*").Allows("anyone", nil))
	require.False(t, ParseACL(" ").Allows("anyone", []string{""}))
	require.False(t, ParseACL("").Allows("", nil))
}
