package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"yarnplay/core/config"
	"yarnplay/scenarios"
)

// LinkWarnBytes is the length past which a share link may not survive
// chat tools and ticket systems: the share dialog suggests a file instead.
const LinkWarnBytes = 2000

// Link returns the share link's fragment (without '#') of the work, the
// current step and the selected queue.
func (s *Store) Link() (string, error) {
	return s.LinkAt(s.step)
}

// LinkAt is Link for step k of the work instead of the current step (a
// step the page was shown from a frame kept of it, the store not having
// moved there).
func (s *Store) LinkAt(k int) (string, error) {
	if s.rest != nil {
		// The work's later steps are not read yet (RestoreHeadFor): a
		// link of the head alone would lose them.
		return "", errors.New("the saved work is still being read")
	}
	c := &s.link
	if c.doc != s.doc {
		payload, err := scenarios.LinkPayload(s.doc)
		if err != nil {
			return "", err
		}
		*c = linkCache{doc: s.doc, payload: payload}
	}
	return scenarios.LinkFor(c.payload, min(max(k, 0), len(s.doc.Steps)), s.sel), nil
}

// linkCache is the share link's payload of the work (scenarios.LinkPayload),
// kept while the work is the same: the page saves the work after every
// step, and a step back or forth changes only the step the link names.
// The store never changes a scenario it holds, it takes a new one (see
// commit; TestStepsAddedAtTheEndLeaveEarlierWorkAlone), so the scenario's
// address says the work is the same; the cache holds the scenario, so no
// other can be given that address.
type linkCache struct {
	doc     *scenarios.Scenario
	payload string
}

// OpenLink replaces the work with the scenario of a share link's fragment
// and stands on its step with its queue selected. A link that does not
// decode is refused, with why, and the work stays.
func (s *Store) OpenLink(fragment string) error {
	sc, step, sel, err := scenarios.DecodeLink(fragment)
	if err != nil {
		return s.refuse(fmt.Errorf("this link does not open: %w", err))
	}
	return s.open(sc, "", step, sel, "this link")
}

// open loads sc, which the link, file or snapshot it came from validated
// (scenarios.Parse, DecodeLink, snapshot.Import), and stands on step with
// sel selected: one frame published, of that step.
func (s *Store) open(sc *scenarios.Scenario, lesson string, step int, sel, what string) error {
	return s.openHead(sc, lesson, step, sel, what, nil)
}

// openHead is open of sc, the head of the work when rest is set: its steps
// up to one past step, the others to come (ReadRest).
func (s *Store) openHead(sc *scenarios.Scenario, lesson string, step int, sel, what string, rest *scenarios.LinkHead) error {
	saved := *s
	if err := s.start(sc, lesson); err != nil {
		*s = saved
		return s.refuse(fmt.Errorf("%s does not open: %w", what, err))
	}
	s.rest = rest
	s.seek(min(max(step, 0), len(sc.Steps)))
	if sel != "" {
		if _, err := s.cur.Scheduler().Queue(sel); err == nil {
			s.sel = sel
		}
	}
	s.publish()
	return nil
}

// ImportScenario replaces the work with a scenario file (YAML or JSON).
// A file Parse refuses is refused with the reason and the work stays.
func (s *Store) ImportScenario(name string, data []byte) error {
	sc, err := scenarios.Parse(name, data)
	if err != nil {
		return s.refuse(fmt.Errorf("the file does not load: %w", err))
	}
	return s.open(sc, "", 0, s.sel, "the file")
}

// ExportYAML returns the work as a scenario file.
func (s *Store) ExportYAML() ([]byte, error) { return s.doc.YAML() }

// ImportXML replaces the configuration the scenario starts with by a
// capacity-scheduler.xml (the properties outside yarn.scheduler.capacity.
// that the file does not set are kept), and goes to the start; the steps
// are kept. A file Hadoop would refuse is refused with Hadoop's message;
// one Hadoop accepts that yarnplay cannot simulate is refused naming the
// feature (config.Check).
func (s *Store) ImportXML(data []byte) error { return s.importConf(config.ParseXML(data)) }

// ImportXMLText is ImportXML for text pasted into the page, already
// decoded (the encoding its declaration names is not applied again).
func (s *Store) ImportXMLText(text string) error { return s.importConf(config.ParseXMLText(text)) }

func (s *Store) importConf(c *config.Conf, err error) error {
	if err != nil {
		return s.refuse(fmt.Errorf("the file is not a configuration file Hadoop reads: %w", err))
	}
	profile, err := config.ParseProfile(orDefault(s.doc.Profile, scenarios.ProfileHadoop3))
	if err != nil {
		return s.refuse(err)
	}
	conf := c.Map()
	start, err := s.doc.StartConfig()
	if err == nil {
		for k, v := range start.Map() {
			if _, set := conf[k]; !set && !strings.HasPrefix(k, config.Prefix) {
				conf[k] = v
			}
		}
	}
	// The three outcomes of yarnplay-validate (config.Check).
	switch res := config.Check(config.FromMap(conf), profile); res.Verdict {
	case config.Refused:
		return s.refuse(fmt.Errorf("Hadoop would not start with this configuration: %w", res.Err))
	case config.NotSimulated:
		return s.refuse(fmt.Errorf("Hadoop accepts this configuration, but yarnplay cannot simulate %s: %w. %s",
			res.Err.Feature, res.Err, res.Err.Instead))
	}
	d := s.edit()
	d.Config, d.ConfigXML = maps.Clone(conf), ""
	if err := s.commit(d, -1, 0, nil); err != nil {
		return err
	}
	s.works++
	return nil
}

// ExportXML returns the configuration in force at the current step as a
// capacity-scheduler.xml.
func (s *Store) ExportXML() []byte { return s.cur.Scheduler().Conf().XML() }

// Storage is where the work is kept between visits: the browser's
// localStorage (bridge.LocalStorage), or a map in tests.
type Storage interface {
	Get(key string) (value string, ok bool, err error)
	Set(key, value string) error
}

// SaveKey is the storage key of the work in progress.
const SaveKey = "yarnplay.work"

// saved is what Save writes: the share link of the work and the lesson.
type saved struct {
	Version int    `json:"v"`
	Lesson  string `json:"lesson,omitempty"`
	Link    string `json:"link"`
}

// Save keeps the work, its step and selection in st.
func (s *Store) Save(st Storage) error { return s.SaveAt(st, s.step) }

// SaveAt is Save of the work standing on step k (see LinkAt).
func (s *Store) SaveAt(st Storage, k int) error {
	link, err := s.LinkAt(k)
	if err != nil {
		return err
	}
	data, err := json.Marshal(saved{Version: 1, Lesson: s.lesson, Link: link})
	if err != nil {
		return err
	}
	return st.Set(SaveKey, string(data))
}

// SavedLesson returns the lesson of the work kept in st ("" when none, or
// work of its own); ok is false when st keeps no work, or work in a form
// this version does not read.
func SavedLesson(st Storage) (lesson string, ok bool) {
	sv, ok := readSaved(st)
	return sv.Lesson, ok
}

// readSaved reads the work kept in st; ok is false when st keeps none, or
// work in a form this version does not read.
func readSaved(st Storage) (sv saved, ok bool) {
	v, ok, err := st.Get(SaveKey)
	if err != nil || !ok {
		return saved{}, false
	}
	if json.Unmarshal([]byte(v), &sv) != nil || sv.Version != 1 {
		return saved{}, false
	}
	return sv, true
}

// Restore brings back the work kept in st. It returns false when st keeps
// none; kept work that no longer opens is refused (the error says why) and
// the current work stays.
func (s *Store) Restore(st Storage) (bool, error) {
	v, ok, err := st.Get(SaveKey)
	if err != nil {
		return false, s.refuse(fmt.Errorf("the saved work cannot be read: %w", err))
	}
	if !ok {
		return false, nil
	}
	var sv saved
	if err := json.Unmarshal([]byte(v), &sv); err != nil || sv.Version != 1 {
		return false, s.refuse(fmt.Errorf("the saved work is in a form this yarnplay does not read"))
	}
	return s.restore(sv)
}

// RestoreFor is Restore of the work kept in st when SavedLesson reads it
// and it started from the lesson slug (from any lesson, or none, when
// slug is ""); else it returns false and changes nothing. It reads the
// kept work once, where SavedLesson then Restore read it twice (megabytes
// for a cluster of thousands of nodes).
func (s *Store) RestoreFor(st Storage, slug string) (bool, error) {
	sv, ok := readSaved(st)
	if !ok || slug != "" && sv.Lesson != slug {
		return false, nil
	}
	return s.restore(sv)
}

// restore opens sv, saved work read.
func (s *Store) restore(sv saved) (bool, error) {
	sc, step, sel, err := scenarios.DecodeSavedLink(sv.Link)
	if err != nil {
		return false, s.refuse(fmt.Errorf("the saved work does not open: %w", err))
	}
	if err := s.open(sc, sv.Lesson, step, sel, "the saved work"); err != nil {
		return false, err
	}
	return true, nil
}
