package listener

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// applyAll folds bodies received one minute apart into a new state.
func applyAll(bodies ...string) *State {
	st := NewState()
	for i, b := range bodies {
		st.Apply(Event{Seq: int64(i + 1), At: t0.Add(time.Duration(i) * time.Minute), Hash: Hash([]byte(b)), Body: []byte(b)}, time.Hour)
	}
	return st
}

// show renders rows compactly: art/color/talle/dep=unidades[x] where x marks eliminado.
func show(rows []Row) []string {
	var out []string
	for _, r := range rows {
		s := fmt.Sprintf("%d/%d/%d/%d=%s", r.ArticuloID, r.ColorID, r.TalleID, r.DepositoID, r.Unidades)
		if !r.HasUnidades {
			s = fmt.Sprintf("%d=?", r.ArticuloID)
		}
		if r.Eliminado {
			s += "x"
		}
		out = append(out, s)
	}
	return out
}

func TestApply(t *testing.T) {
	flat := `[{"articuloId":100,"codigo":"REM-1","colorId":1,"talleId":2,"unidades":7},{"articuloId":100,"colorId":1,"talleId":1,"unidades":3}]`
	tests := []struct {
		name   string
		bodies []string
		want   []string
	}{
		{"flat, one record per variant", []string{flat}, []string{"100/1/1/0=3", "100/1/2/0=7"}},
		{"grouped curve", []string{`{"articuloId":100,"codigo":"REM-1","stockTotal":10,"curva":[{"articuloId":100,"colorId":1,"talleId":2,"unidades":7},{"articuloId":100,"colorId":1,"talleId":1,"unidades":3}]}`},
			[]string{"100/1/1/0=3", "100/1/2/0=7"}},
		{"grouped without curve uses stockTotal", []string{`{"articuloId":105,"stockTotal":12.5,"curva":[]}`}, []string{"105/0/0/0=12.5"}},
		{"grouped with a null curve uses stockTotal", []string{`{"articuloId":105,"stockTotal":12.5,"curva":null}`}, []string{"105/0/0/0=12.5"}},
		{"grouped curve is the article's whole variant list", []string{
			`{"articuloId":100,"stockTotal":10,"curva":[{"articuloId":100,"colorId":1,"talleId":2,"unidades":7},{"articuloId":100,"colorId":1,"talleId":1,"unidades":3}]}`,
			`{"articuloId":100,"stockTotal":2,"curva":[{"articuloId":100,"colorId":1,"talleId":1,"unidades":2}]}`},
			[]string{"100/1/1/0=2"}},
		{"grouped article that gains a curve", []string{`{"articuloId":105,"stockTotal":4,"curva":[]}`,
			`{"articuloId":105,"stockTotal":4,"curva":[{"articuloId":105,"colorId":3,"talleId":1,"unidades":4}]}`},
			[]string{"105/3/1/0=4"}},
		{"multi-warehouse: one row per warehouse, unidades of the main one ignored", []string{
			`[{"articuloId":110,"unidades":5,"stockDepositos":[{"depositoId":3,"unidades":0},{"depositoId":1,"unidades":5},{"depositoId":2,"unidades":4.5}]}]`},
			[]string{"110/0/0/1=5", "110/0/0/2=4.5", "110/0/0/3=0"}},
		{"grouped multi-warehouse", []string{`{"articuloId":110,"curva":[{"articuloId":110,"unidades":5,"stockDepositos":[{"depositoId":1,"unidades":5},{"depositoId":2,"unidades":1}]}]}`},
			[]string{"110/0/0/1=5", "110/0/0/2=1"}},
		{"later event replaces a variant", []string{flat, `[{"articuloId":100,"colorId":1,"talleId":2,"unidades":1}]`},
			[]string{"100/1/1/0=3", "100/1/2/0=1"}},
		{"deactivation keeps the last stock, marked", []string{flat, `[{"articuloId":100,"eliminado":true}]`},
			[]string{"100/1/1/0=3x", "100/1/2/0=7x"}},
		{"grouped deactivation of an unknown article", []string{`{"articuloId":200,"eliminado":true}`}, []string{"200=?x"}},
		{"reactivation", []string{flat, `{"articuloId":100,"eliminado":true}`, `[{"articuloId":100,"colorId":1,"talleId":1,"unidades":4}]`},
			[]string{"100/1/1/0=4", "100/1/2/0=7"}},
		// Events carry no id or time: stock that goes back to an earlier
		// level gives a body identical to an earlier event, and it is a
		// real change, not a resend.
		{"stock back to an earlier level is applied", []string{flat, `[{"articuloId":100,"colorId":1,"talleId":2,"unidades":1}]`, flat},
			[]string{"100/1/1/0=3", "100/1/2/0=7"}},
		{"deactivated again after a reactivation", []string{flat, `{"articuloId":100,"eliminado":true}`,
			`[{"articuloId":100,"colorId":1,"talleId":1,"unidades":4}]`, `{"articuloId":100,"eliminado":true}`},
			[]string{"100/1/1/0=4x", "100/1/2/0=7x"}},
		{"records without articuloId are ignored", []string{`[{"codigo":"x","unidades":1}]`, `{"hola":1}`, `[1,2]`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, show(applyAll(tt.bodies...).Rows(time.Time{}))); diff != "" {
				t.Fatalf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReplayWindowAndStats(t *testing.T) {
	body := []byte(`[{"articuloId":1,"unidades":2}]`)
	st := NewState()
	for i, at := range []time.Time{t0, t0.Add(time.Minute), t0.Add(2 * time.Hour)} {
		st.Apply(Event{Seq: int64(i + 1), At: at, Hash: Hash(body), Body: body}, time.Hour)
	}
	// The second is a replay; the third, past the window, a new event.
	if st.Stats.Events != 2 || st.Stats.Replays != 1 {
		t.Fatalf("stats %+v, want 2 events and 1 replay", st.Stats)
	}
	if got := st.Rows(time.Time{})[0].Actualizado; !got.Equal(t0.Add(2 * time.Hour)) {
		t.Fatalf("actualizado %v", got)
	}
	if n := len(st.Rows(t0.Add(3 * time.Hour))); n != 0 {
		t.Fatalf("--since after the last change kept %d rows", n)
	}
}

func TestReplayIsTheArticlesLastEvent(t *testing.T) {
	a := `[{"articuloId":1,"unidades":2}]`
	b := `[{"articuloId":2,"unidades":5}]`
	a3 := `[{"articuloId":1,"unidades":3}]`
	tests := []struct {
		name    string
		bodies  []string
		replays int64
	}{
		{"resend right after", []string{a, a}, 1},
		{"resend after another article's event", []string{a, b, a}, 1},
		{"same body after the article changed", []string{a, a3, a}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := applyAll(tt.bodies...)
			if st.Stats.Replays != tt.replays || st.Stats.Events != int64(len(tt.bodies))-tt.replays {
				t.Fatalf("stats %+v, want %d replays", st.Stats, tt.replays)
			}
		})
	}
}

func openStore(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, Options{SnapshotEvery: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func post(t *testing.T, url, secret, body string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if secret != "" {
		req.Header.Set(SecretHeader, secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	var logs syncBuffer
	s, err := Open(dir, Options{MaxItems: 3, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(&Handler{Store: s, Secret: []byte("s3cret"), MaxBody: 100, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	defer srv.Close()
	tests := []struct {
		name, secret, body string
		want               int
		refused            int64  // counted for a resync
		logged             string // in the log, in Spanish
	}{
		{"ok", "s3cret", `[{"articuloId":1,"unidades":2}]`, 200, 0, ""},
		{"wrong secret", "s3cre", `[{"articuloId":2,"unidades":2}]`, 401, 0, "no trae el secreto compartido"},
		{"no secret", "", `[{"articuloId":3,"unidades":2}]`, 401, 0, "no trae el secreto compartido"},
		{"not JSON", "s3cret", `[{"articuloId":4,`, 400, 1, "no es JSON"},
		{"not an event", "s3cret", `42`, 400, 2, "no es un evento de artículos"},
		{"junk elements", "s3cret", `[1,1,1]`, 400, 3, "no es un evento de artículos"},
		{"too large", "s3cret", `[{"articuloId":5,"codigo":"` + strings.Repeat("x", 100) + `"}]`, 413, 4, "el cuerpo supera 100 bytes"},
		{"too many items", "s3cret", `[{"articuloId":6},{"articuloId":6,"stockDepositos":[{},{}]}]`, 413, 5, "trae más de 3 ítems"},
		{"at the item cap", "s3cret", `[{"articuloId":7,"stockDepositos":[{},{}]}]`, 200, 5, ""},
	}
	for _, tt := range tests {
		if got := post(t, srv.URL, tt.secret, tt.body); got != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, got, tt.want)
		}
		if got := s.Refusals().Total(); got != tt.refused {
			t.Errorf("%s: %d refusals counted, want %d", tt.name, got, tt.refused)
		}
		if tt.logged != "" && !strings.Contains(logs.String(), tt.logged) {
			t.Errorf("%s: the log lacks %q:\n%s", tt.name, tt.logged, logs.String())
		}
	}
	if r, err := LoadRefusals(dir); err != nil || r != s.Refusals() {
		t.Errorf("persisted refusals %+v %v, want %+v", r, err, s.Refusals())
	}
	resp, err := http.Get(srv.URL)
	if err != nil || resp.StatusCode != 405 {
		t.Fatalf("GET: %v %v", resp, err)
	}
	if err := s.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, LogFile))
	if n := bytes.Count(log, []byte("\n")); n != 2 {
		t.Fatalf("log holds %d events, want only the 2 accepted:\n%s", n, log)
	}
	if bytes.Contains(log, []byte("s3cret")) {
		t.Fatal("the secret reached the log")
	}
}

// A new secret from `webhooks set --secret` is sent by the ERP at once, and
// the API does not retry refused events: listen must not wait for a restart.
func TestHandlerPicksUpARotatedSecret(t *testing.T) {
	dir := t.TempDir()
	if err := SaveSecret(dir, "old-secret"); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, dir)
	defer s.Close()
	srv := httptest.NewServer(&Handler{Store: s, Secret: []byte("old-secret"), SecretDir: dir})
	defer srv.Close()
	body := `[{"articuloId":1,"unidades":2}]`
	if got := post(t, srv.URL, "old-secret", body); got != 200 {
		t.Fatalf("configured secret: %d", got)
	}
	if err := SaveSecret(dir, "new-secret"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		secret string
		want   int
	}{{"new-secret", 200}, {"old-secret", 401}, {"other", 401}} {
		if got := post(t, srv.URL, tt.secret, body); got != tt.want {
			t.Errorf("after rotation, secret %q: status %d, want %d", tt.secret, got, tt.want)
		}
	}
}

func TestReopenAppliesTheLogAfterTheSnapshot(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	for i := 1; i <= 3; i++ {
		if _, err := s.Append([]byte(fmt.Sprintf(`[{"articuloId":%d,"unidades":%d}]`, i, i))); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	// Events appended after the last snapshot, as if the process died
	// before saving it: write them to the log as a second store would, then
	// put the first snapshot back.
	snap, _ := os.ReadFile(filepath.Join(dir, SnapshotFile))
	s = openStore(t, dir)
	if _, err := s.Append([]byte(`[{"articuloId":4,"unidades":4}]`)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	os.WriteFile(filepath.Join(dir, SnapshotFile), snap, 0o600)
	// And a torn, never acknowledged line at the end.
	f, _ := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":5,"at":"2026-`)
	f.Close()

	st, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1/0/0/0=1", "2/0/0/0=2", "3/0/0/0=3", "4/0/0/0=4"}
	if diff := cmp.Diff(want, show(st.Rows(time.Time{}))); diff != "" {
		t.Fatalf("Load (-want +got):\n%s", diff)
	}
	s = openStore(t, dir)
	ev, err := s.Append([]byte(`[{"articuloId":5,"unidades":5}]`))
	if err != nil || ev.Seq != 5 {
		t.Fatalf("append after the torn line: %+v %v", ev, err)
	}
	s.Sync(context.Background())
	var rows []Row
	s.View(func(st *State) { rows = st.Rows(time.Time{}) })
	if len(rows) != 5 {
		t.Fatalf("rows after reopen: %v", show(rows))
	}
	s.Close()
}

func TestSecondStoreIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	defer s.Close()
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), ErrLocked.Error()) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
}

func TestSecretFile(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := LoadSecret(dir); ok || err != nil {
		t.Fatalf("no secret yet: %v %v", ok, err)
	}
	s, err := NewSecret(dir)
	if err != nil || len(s) != 64 {
		t.Fatalf("NewSecret: %q %v", s, err)
	}
	fi, _ := os.Stat(filepath.Join(dir, SecretFile))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	got, ok, err := LoadSecret(dir)
	if !ok || err != nil || string(got) != s {
		t.Fatalf("LoadSecret: %q %v %v", got, ok, err)
	}
	os.Chmod(filepath.Join(dir, SecretFile), 0o644)
	if _, _, err := LoadSecret(dir); err == nil {
		t.Fatal("a secret readable by others was accepted")
	}
}

func TestExport(t *testing.T) {
	st := applyAll(`[{"articuloId":100,"codigo":"=HYPERLINK(1)","colorId":1,"talleId":2,"unidades":7.5,"stockDepositos":[{"depositoId":2,"unidades":7.5}]}]`,
		`{"articuloId":200,"eliminado":true}`)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.csv")
	if err := Export(path, st.Rows(time.Time{})); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimPrefix(string(b), "\uFEFF"), "\r\n")
	if lines[0] != strings.Join(ExportColumns, ";") {
		t.Fatalf("header %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "100;'=HYPERLINK(1);1;2;2;7.5;false;") || !strings.HasPrefix(lines[2], "200;;;;;;true;") {
		t.Fatalf("rows:\n%s", b)
	}
	if err := Export(filepath.Join(dir, "s.xlsx"), st.Rows(time.Time{})); err != nil {
		t.Fatal(err)
	}
	if err := Export(filepath.Join(dir, "s.xls"), nil); err == nil {
		t.Fatal(".xls accepted")
	}
}

// The log's lines are read by their fixed frame, without scanning the body
// twice; what they give is what json.Unmarshal gives, and a line of
// another shape still goes through json.Unmarshal.
func TestParseLine(t *testing.T) {
	body := []byte(`[{"articuloId":1,"codigo":"\u003c\"x\"}"}]`)
	ev := Event{Seq: 42, At: t0.Add(123456789), Hash: Hash(body), Body: body}
	marshaled, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		line string
		want Event
		err  bool
	}{
		{"written by json.Marshal", string(marshaled) + "\n", ev, false},
		{"fields in another order", `{"body":[1],"sha256":"ab","seq":3,"at":"2026-11-20T12:00:00Z"}` + "\n",
			Event{Seq: 3, At: t0, Hash: "ab", Body: []byte(`[1]`)}, false},
		{"cut short", string(marshaled[:40]) + "\n", Event{}, true},
	}
	for _, tt := range tests {
		got, err := parseLine([]byte(tt.line))
		if (err != nil) != tt.err || got.Seq != tt.want.Seq || !got.At.Equal(tt.want.At) || got.Hash != tt.want.Hash ||
			(!tt.err && !json.Valid(got.Body)) || (!tt.err && Hash(compact(t, got.Body)) != Hash(compact(t, tt.want.Body))) {
			t.Errorf("%s: %+v %v, want %+v", tt.name, got, err, tt.want)
		}
	}
	// And what the store writes reads back as the event it returned.
	dir := t.TempDir()
	s := openStore(t, dir)
	stored, err := s.Append(body)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, _ := os.ReadFile(filepath.Join(dir, LogFile))
	got, err := parseLine(b)
	if err != nil || got.Seq != stored.Seq || !got.At.Equal(stored.At) || got.Hash != stored.Hash || !bytes.Equal(got.Body, body) {
		t.Fatalf("the stored line reads back as %+v %v, want %+v", got, err, stored)
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
