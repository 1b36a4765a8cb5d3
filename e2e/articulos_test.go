package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// getDataCurva is how many GetDataCurva requests reached the sandbox.
func getDataCurva(sb *sandbox.Running) int {
	n := 0
	for _, c := range sb.Server.State().Requests["GET "+strings.ToLower(nxapi.PathGetDataCurva)] {
		n += c
	}
	return n
}

// TestArticleCatalogPullShowAndListen: the article catalog is fetched
// once per masses window and cached; a deactivation that `nxbatch listen`
// receives afterwards shows in the catalog without a new read.
func TestArticleCatalogPullShowAndListen(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	sc := strconv.FormatFloat(scale, 'g', -1, 64)
	api := []string{"--base-url", sb.URL, "--time-scale", sc, "--journal", w.journal()}
	pull := append([]string{"catalog", "pull", "--articulos"}, api...)

	if r := w.nx(t, pull...); r.code != 0 || !strings.Contains(r.stdout, "articulos: actualizado desde la API") {
		t.Fatalf("first pull: %s", r)
	}
	// The masses window (10 minutes, 6 s at this scale) is persisted in
	// the journal: a second pull right away does not ask, and keeps the
	// copy.
	r := w.nx(t, pull...)
	if r.code != 0 || !strings.Contains(r.stdout, "10 minutos") || !strings.Contains(r.stdout, "queda la copia guardada") ||
		!strings.Contains(r.stdout, "catalog pull --articulos") || getDataCurva(sb) != 1 {
		t.Fatalf("second pull inside the window (%d reads): %s", getDataCurva(sb), r)
	}

	// listen receives the sandbox's events.
	// listen's default store, which every command reads the events from.
	store := filepath.Join(w.stateHome(), "nxbatch", "listen")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lc := exec.CommandContext(ctx, binary, "listen", "--addr", "127.0.0.1:0", "--store", store)
	lc.Dir = w.dir
	lc.Env = append(os.Environ(), "XDG_STATE_HOME="+w.stateHome())
	lc.Stderr = &bytes.Buffer{}
	out, err := lc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := lc.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = lc.Wait() }()
	listenURL := ""
	sc2 := bufio.NewScanner(out)
	for listenURL == "" && sc2.Scan() {
		listenURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(sc2.Text())
	}
	if listenURL == "" {
		t.Fatalf("listen did not say where it listens: %v", lc.Stderr)
	}
	go func() {
		for sc2.Scan() {
		}
	}()
	body, _ := json.Marshal(nxapi.WebhookGuardar{URL: listenURL, Topic: nxapi.TopicArticulos})
	req, _ := http.NewRequest("POST", sb.URL+nxapi.PathWebhooks, bytes.NewReader(body))
	req.Header.Set(nxapi.TokenHeader, sandbox.DefaultToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("webhook: %v %v", resp, err)
	}
	resp.Body.Close()
	if err := sb.Server.DeactivateArticulo(101); err != nil {
		t.Fatal(err)
	}
	fctx, fcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer fcancel()
	if err := sb.Server.Flush(fctx); err != nil {
		t.Fatal(err)
	}
	if d := sb.Server.State().Deliveries; len(d) != 1 || d[0].Status != 200 {
		t.Fatalf("deliveries %+v", d)
	}

	r = w.nx(t, append([]string{"catalog", "show", "--listen-store", store}, api...)...)
	if r.code != 0 || getDataCurva(sb) != 1 {
		t.Fatalf("show (%d reads): %s", getDataCurva(sb), r)
	}
	if !strings.Contains(r.stderr, "nxbatch listen") {
		t.Errorf("show does not say listen's events were applied: %s", r.stderr)
	}
	active := map[string]int{}
	for _, line := range strings.Split(r.stdout, "\n") {
		f := strings.Fields(line)
		if len(f) > 2 && (f[0] == "100" || f[0] == "101" || f[0] == "120") {
			active[f[0]+" "+f[len(f)-1]]++
		}
	}
	if active["101 no"] != 6 || active["101 sí"] != 0 || active["100 sí"] != 6 || active["120 no"] != 1 {
		t.Errorf("article rows by state: %v\n%s", active, r.stdout)
	}

	// The folder export holds the catalog as GetDataCurva answers it, for
	// --catalog DIR.
	dir := filepath.Join(w.dir, "catalogos") + string(filepath.Separator)
	if r := w.nx(t, append([]string{"catalog", "export", "--listen-store", store}, append(api, dir)...)...); r.code != 0 {
		t.Fatalf("export: %s", r)
	}
	b, err := os.ReadFile(filepath.Join(dir, "articulos.json"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := nxapi.DecodeGetDataCurva(b)
	if err != nil || len(recs) != 50 {
		t.Fatalf("articulos.json: %d records, %v", len(recs), err)
	}

	// A run uses the cached catalog with listen's events: the article
	// deactivated since the read is refused before any request, and the
	// catalog is not read again.
	sales := writeFile(t, w.dir, "ventas.csv",
		"ordenId,usuario.email,productos.codigo,productos.talle,productos.color,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"+
			"82001,a@example.com,A101,M,Negro,100,1,100,0,0,0,100,EFECTIVO\n"+
			"82002,b@example.com,A100,M,Negro,100,1,100,0,0,0,100,EFECTIVO\n")
	r = w.nx(t, w.runArgs(sales)...)
	rows := w.readReport(t, sales)
	if r.code != 1 || len(rows) != 2 || rows[0]["result.status"] != "invalid" || !strings.Contains(rows[0]["result.message"], "A101") ||
		rows[1]["result.status"] != "ok" {
		t.Fatalf("run after the deactivation: exit %d, rows %v\n%s", r.code, rows, r)
	}
	if n := getDataCurva(sb); n != 1 {
		t.Errorf("the run read the article catalog again (%d reads), want the cached copy with listen's events", n)
	}
}
