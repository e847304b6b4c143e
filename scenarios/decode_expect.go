package scenarios

import (
	"math"
	"strings"
)

// expectKeys are the keys of an `expect` step, in the format's order.
var expectKeys = []string{
	"queue_used", "queue_reserved", "queue_capacities", "queue_state",
	"queue_exists", "queue_type", "queue_parent", "num_active_apps",
	"num_pending_apps", "user_active_apps", "user_pending_apps",
	"active_users", "user_used", "partition_used", "am_resource_limit", "user_am_resource_limit",
	"max_applications", "max_applications_per_user", "acl", "app_state",
	"app_consumption", "app_reserved", "app_live_containers",
	"app_reserved_containers", "app_attempt", "app_headroom", "app_outstanding",
	"app_scheduling_opportunities", "last_step_allocations", "node_allocated",
	"node_reserved", "cluster_used", "preemption_marked",
	"preemption_events_total",
}

func (d *decoder) expect(v *value, path string) (*Expect, error) {
	e := &Expect{}
	if v.kind == vNull {
		return e, nil
	}
	fs, err := d.fields(v, path, expectKeys)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		p := d.sub(path, f.key)
		var err error
		switch f.key {
		case "queue_used":
			e.QueueUsed, err = d.resMap(f.val, p)
		case "queue_reserved":
			e.QueueReserved, err = d.resMap(f.val, p)
		case "queue_capacities":
			e.QueueCapacities, err = d.capacities(f.val, p)
		case "queue_state":
			e.QueueState, err = d.enumMap(f.val, p, queueStates, strings.ToUpper)
		case "queue_exists":
			e.QueueExists, err = d.boolMap(f.val, p)
		case "queue_type":
			e.QueueType, err = d.enumMap(f.val, p, queueTypes, strings.ToLower)
		case "queue_parent":
			e.QueueParent, err = d.enumMap(f.val, p, nil, nil)
		case "num_active_apps":
			e.NumActiveApps, err = d.intMap(f.val, p)
		case "num_pending_apps":
			e.NumPendingApps, err = d.intMap(f.val, p)
		case "user_active_apps":
			e.UserActiveApps, err = d.nestedIntMap(f.val, p, false)
		case "user_pending_apps":
			e.UserPendingApps, err = d.nestedIntMap(f.val, p, false)
		case "active_users":
			e.ActiveUsers, err = d.intMap(f.val, p)
		case "user_used":
			e.UserUsed, err = d.nestedResMap(f.val, p)
		case "partition_used":
			e.PartitionUsed, err = d.nestedResMap(f.val, p)
		case "am_resource_limit":
			e.AMResourceLimit, err = d.resMap(f.val, p)
		case "user_am_resource_limit":
			e.UserAMResourceLimit, err = d.resMap(f.val, p)
		case "max_applications":
			e.MaxApplications, err = d.intMap(f.val, p)
		case "max_applications_per_user":
			e.MaxApplicationsPerUser, err = d.intMap(f.val, p)
		case "acl":
			e.ACL, err = d.acls(f.val, p)
		case "app_state":
			e.AppState, err = d.enumMap(f.val, p, appStates, strings.ToUpper)
		case "app_consumption":
			e.AppConsumption, err = d.resMap(f.val, p)
		case "app_reserved":
			e.AppReserved, err = d.resMap(f.val, p)
		case "app_live_containers":
			e.AppLiveContainers, err = d.intMap(f.val, p)
		case "app_attempt":
			e.AppAttempt, err = d.intMap(f.val, p)
		case "app_reserved_containers":
			e.AppReservedContainers, err = d.intMap(f.val, p)
		case "app_headroom":
			e.AppHeadroom, err = d.resMap(f.val, p)
		case "app_outstanding":
			e.AppOutstanding, err = d.nestedIntMap(f.val, p, true)
		case "app_scheduling_opportunities":
			e.AppSchedulingOpportunities, err = d.nestedIntMap(f.val, p, true)
		case "last_step_allocations":
			var list []AllocationCheck
			list, err = d.allocations(f.val, p)
			e.LastStepAllocations = &list
		case "node_allocated":
			e.NodeAllocated, err = d.resMap(f.val, p)
		case "node_reserved":
			e.NodeReserved, err = d.optResMap(f.val, p)
		case "cluster_used":
			var r ExpRes
			r, err = d.expRes(f.val, p)
			e.ClusterUsed = &r
		case "preemption_marked":
			e.PreemptionMarked, err = d.intMap(f.val, p)
		case "preemption_events_total":
			e.PreemptionEventsTotal, err = d.preemptionCounts(f.val, p)
		}
		if err != nil {
			return nil, err
		}
	}
	return e, nil
}

// expRes reads an expected resource; without vcores only memory is compared.
func (d *decoder) expRes(v *value, path string) (ExpRes, error) {
	mem, vcores, has, err := d.resource(v, path, math.MinInt64/4)
	if err != nil {
		return ExpRes{}, err
	}
	r := ExpRes{MemoryMB: mem}
	if has {
		r.VCores = &vcores
	}
	return r, nil
}

// entries reads a map whose keys are names (queues, apps, nodes, users).
func (d *decoder) entries(v *value, path string) ([]field, error) {
	fs, err := d.fields(v, path, nil)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if f.key == "" {
			return nil, d.errAt(f.at, path, "a name must not be empty")
		}
	}
	return fs, nil
}

func (d *decoder) resMap(v *value, path string) (map[string]ExpRes, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]ExpRes, len(fs))
	for _, f := range fs {
		if out[f.key], err = d.expRes(f.val, d.sub(path, f.key)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *decoder) optResMap(v *value, path string) (map[string]*ExpRes, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*ExpRes, len(fs))
	for _, f := range fs {
		if f.val.kind == vNull {
			out[f.key] = nil
			continue
		}
		r, err := d.expRes(f.val, d.sub(path, f.key))
		if err != nil {
			return nil, err
		}
		out[f.key] = &r
	}
	return out, nil
}

func (d *decoder) nestedResMap(v *value, path string) (map[string]map[string]ExpRes, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[string]ExpRes, len(fs))
	for _, f := range fs {
		if out[f.key], err = d.resMap(f.val, d.sub(path, f.key)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *decoder) intMap(v *value, path string) (map[string]int, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(fs))
	for _, f := range fs {
		if out[f.key], err = d.intIn(f.val, d.sub(path, f.key), 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// nestedIntMap reads {name: {key: n}}; with priorityKeys the inner keys
// must be request priorities (whole numbers).
func (d *decoder) nestedIntMap(v *value, path string, priorityKeys bool) (map[string]map[string]int, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[string]int, len(fs))
	for _, f := range fs {
		p := d.sub(path, f.key)
		inner, err := d.intMap(f.val, p)
		if err != nil {
			return nil, err
		}
		if priorityKeys {
			ifs, _ := d.fields(f.val, p, nil)
			for _, in := range ifs {
				if _, err := parsePriority(in.key); err != nil {
					return nil, d.errAt(in.at, p, "key %q must be a request priority (a whole number)", in.key)
				}
			}
		}
		out[f.key] = inner
	}
	return out, nil
}

func (d *decoder) boolMap(v *value, path string) (map[string]bool, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(fs))
	for _, f := range fs {
		if out[f.key], err = d.boolean(f.val, d.sub(path, f.key)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// enumMap reads {name: text}; with allowed, the text (normalised by norm)
// must be one of them.
func (d *decoder) enumMap(v *value, path string, allowed []string, norm func(string) string) (map[string]string, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(fs))
	for _, f := range fs {
		s, err := d.str(f.val, d.sub(path, f.key))
		if err != nil {
			return nil, err
		}
		if norm != nil {
			s = norm(s)
		}
		if allowed != nil && !contains(allowed, s) {
			return nil, d.errAt(f.val, d.sub(path, f.key), "must be one of %s, not %q", strings.Join(allowed, ", "), f.val.text)
		}
		out[f.key] = s
	}
	return out, nil
}

func (d *decoder) capacities(v *value, path string) (map[string]QueueCapacities, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]QueueCapacities, len(fs))
	for _, f := range fs {
		p := d.sub(path, f.key)
		cfs, err := d.fields(f.val, p, []string{"capacity", "absolute_capacity", "maximum_capacity", "absolute_maximum_capacity"})
		if err != nil {
			return nil, err
		}
		var qc QueueCapacities
		for _, cf := range cfs {
			x, err := d.number(cf.val, d.sub(p, cf.key))
			if err != nil {
				return nil, err
			}
			switch cf.key {
			case "capacity":
				qc.Capacity = &x
			case "absolute_capacity":
				qc.AbsoluteCapacity = &x
			case "maximum_capacity":
				qc.MaximumCapacity = &x
			case "absolute_maximum_capacity":
				qc.AbsoluteMaximumCapacity = &x
			}
		}
		out[f.key] = qc
	}
	return out, nil
}

func (d *decoder) acls(v *value, path string) ([]ACLCheck, error) {
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be a list of {queue, user, groups, acl, allowed}, not %s", v.describe())
	}
	out := make([]ACLCheck, 0, len(v.content))
	for i, it := range v.content {
		p := d.index(path, i)
		fs, err := d.fields(it, p, []string{"queue", "user", "groups", "acl", "allowed"})
		if err != nil {
			return nil, err
		}
		if err := d.require(it, p, fs, "queue", "user", "acl", "allowed"); err != nil {
			return nil, err
		}
		var a ACLCheck
		for _, f := range fs {
			fp := d.sub(p, f.key)
			switch f.key {
			case "queue":
				a.Queue, err = d.str(f.val, fp)
			case "user":
				a.User, err = d.str(f.val, fp)
			case "groups":
				if f.val.kind != vNull {
					a.Groups, err = d.stringList(f.val, fp)
				}
			case "acl":
				a.ACL, err = d.str(f.val, fp)
				a.ACL = strings.ToUpper(a.ACL)
				if err == nil && !contains(aclNames, a.ACL) {
					err = d.errAt(f.val, fp, "must be one of %s, not %q", strings.Join(aclNames, ", "), f.val.text)
				}
			case "allowed":
				a.Allowed, err = d.boolean(f.val, fp)
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}

func (d *decoder) allocations(v *value, path string) ([]AllocationCheck, error) {
	if v.kind == vNull {
		return []AllocationCheck{}, nil
	}
	if v.kind != vSeq {
		return nil, d.errAt(v, path, "must be a list of {app, node, locality, priority?} ([] for none), not %s", v.describe())
	}
	out := make([]AllocationCheck, 0, len(v.content))
	for i, it := range v.content {
		p := d.index(path, i)
		fs, err := d.fields(it, p, []string{"app", "node", "locality", "priority"})
		if err != nil {
			return nil, err
		}
		if err := d.require(it, p, fs, "app", "node", "locality"); err != nil {
			return nil, err
		}
		var a AllocationCheck
		for _, f := range fs {
			fp := d.sub(p, f.key)
			switch f.key {
			case "app":
				a.App, err = d.str(f.val, fp)
			case "node":
				a.Node, err = d.str(f.val, fp)
			case "locality":
				a.Locality, err = d.str(f.val, fp)
				a.Locality = strings.ToUpper(a.Locality)
				if err == nil && !contains(localities, a.Locality) {
					err = d.errAt(f.val, fp, "must be one of %s, not %q", strings.Join(localities, ", "), f.val.text)
				}
			case "priority":
				var n int
				n, err = d.intIn(f.val, fp, 0)
				a.Priority = &n
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}

func (d *decoder) preemptionCounts(v *value, path string) (map[string]PreemptionCounts, error) {
	fs, err := d.entries(v, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]PreemptionCounts, len(fs))
	for _, f := range fs {
		p := d.sub(path, f.key)
		cfs, err := d.fields(f.val, p, []string{"mark", "kill"})
		if err != nil {
			return nil, err
		}
		var pc PreemptionCounts
		for _, cf := range cfs {
			n, err := d.intIn(cf.val, d.sub(p, cf.key), 0)
			if err != nil {
				return nil, err
			}
			if cf.key == "mark" {
				pc.Mark = &n
			} else {
				pc.Kill = &n
			}
		}
		out[f.key] = pc
	}
	return out, nil
}
