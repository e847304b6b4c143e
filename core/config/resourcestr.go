package config

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"yarnplay/core/resource"
)

// parseResourceString reads a queue's maximum-allocation value the way
// ResourceUtils.createResourceFromString does: comma-separated
// "name=amount[unit]" pairs over a resource that starts at <0, 0>, so a type
// left out is 0. Names: memory-mb (units M/m or G/g, default MB), memory
// (units M or G; without a unit the amount is bytes), vcores. The second
// result lists the types the string did not set.
func parseResourceString(s string) (resource.Resource, []string, error) {
	var r resource.Resource
	set := map[string]bool{}
	t := javaTrim(s)
	pairs := strings.Split(t, ",")
	if t != "" {
		// Java's String.split drops trailing empty strings (but "" splits to [""]).
		for len(pairs) > 0 && pairs[len(pairs)-1] == "" {
			pairs = pairs[:len(pairs)-1]
		}
	}
	for _, pair := range pairs {
		pair = javaTrim(pair)
		key, value, ok := strings.Cut(pair, "=")
		if !ok || key == "" || strings.Contains(value, "=") || !validAmount(value) {
			return r, nil, fmt.Errorf("%q is not a valid resource type/amount pair. "+
				"Please provide key=amount pairs separated by commas.", pair)
		}
		// ResourceUtils.parseResourceValue: the unit starts at the first letter.
		i := strings.IndexFunc(value, unicode.IsLetter)
		units := ""
		if i >= 0 {
			units = value[i:]
			value = value[:i]
		}
		n, err := parseJavaInteger(javaTrim(value), 10, 64)
		if err != nil {
			return r, nil, fmt.Errorf("%q is not a valid amount (java.lang.NumberFormatException)", value)
		}
		switch units {
		case "M", "m":
			units = "Mi"
		case "G", "g":
			units = "Gi"
		case "":
		default:
			return r, nil, fmt.Errorf("Acceptable units are M/G or empty")
		}
		switch key {
		case "memory-mb":
			if units == "Gi" {
				n, err = mulNoOverflow(n, 1024)
			}
		case "memory":
			switch units {
			case "":
				n /= 1024 * 1024 // bytes to MiB
			case "Gi":
				n, err = mulNoOverflow(n, 1024)
			}
			key = "memory-mb"
		case "vcores":
		case "gpu", "fpga":
			return r, nil, fmt.Errorf("Unknown resource: yarn.io/%s", key)
		default:
			return r, nil, fmt.Errorf("Unknown resource: %s", key)
		}
		if err != nil {
			return r, nil, err
		}
		if key == "memory-mb" {
			r.MemoryMB = n
		} else {
			r.VCores = n
		}
		set[key] = true
	}
	var missing []string
	for _, k := range []string{"memory-mb", "vcores"} {
		if !set[k] {
			missing = append(missing, k)
		}
	}
	return r, missing, nil
}

// validAmount matches the value part of ResourceUtils' "^[^=]+=\d+\s?\w*$".
func validAmount(v string) bool {
	i := 0
	for i < len(v) && isDigit(v[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	if i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\v' || v[i] == '\f' || v[i] == '\r') {
		i++
	}
	for ; i < len(v); i++ {
		c := v[i]
		if !(isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func mulNoOverflow(n, by int64) (int64, error) {
	if n > math.MaxInt64/by {
		return 0, fmt.Errorf("Converting %d will result in an overflow of Long", n)
	}
	return n * by, nil
}
