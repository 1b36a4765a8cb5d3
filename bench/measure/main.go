// Command measure runs the nxbatch binary against an in-process API sandbox
// and prints the figures the README quotes: for sales, the sustained
// throughput (from the first to the last voucher the sandbox created)
// against the bound min(rate, workers / latency); for a stock count, the
// number of movement requests against the minimum and the run's wall time
// against (requests - 1) x the stock window.
//
//	measure -bin /tmp/nxbatch -latency 20ms -workers 8 -rate 0 ventas.csv
//	measure -bin /tmp/nxbatch -kind stock -scale 0.1 -data data.json -max-articulos 500 stock.csv
//	measure -bin /tmp/nxbatch -pg -latency 20ms -workers 8 -rate 0 ventas.csv   (PostgreSQL journal)
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/internal/pgtest"
	"github.com/nxbatch/nxbatch/sandbox"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

// bucketsFlag is -every.
var bucketsFlag *time.Duration

// journalKind names the journal of the run in the figures.
var journalKind string

// stockWindow is the API's stock movement window before scaling.
const stockWindow = 3 * time.Second

func run() error {
	bin := flag.String("bin", "", "nxbatch binary")
	kind := flag.String("kind", "venta", "venta or stock")
	latency := flag.Duration("latency", 0, "sandbox latency per request (real time)")
	scale := flag.Float64("scale", 1, "time scale of the sandbox and of the run")
	data := flag.String("data", "", "sandbox data file (default: demo data)")
	workers := flag.Int("workers", 8, "--workers")
	rate := flag.Float64("rate", 0, "--rate (0: none)")
	maxArt := flag.Int("max-articulos", 500, "--max-articulos")
	xlsx := flag.Bool("xlsx", false, "also write the XLSX reports (the default passes --no-xlsx)")
	bucketsFlag = flag.Duration("every", 0, "also print the throughput of every such span of the sending")
	dir := flag.String("dir", "", "folder for journal and reports (default: a new temp folder)")
	jflag := flag.String("journal", "", "--journal for the run: a file or a postgres:// URL of an empty journal (default: a file in -dir)")
	pg := flag.Bool("pg", false, "journal in a private PostgreSQL server started for the run (Debian's postgresql package), on loopback")
	flag.Parse()
	if *bin == "" || flag.NArg() != 1 {
		return errors.New("usage: measure -bin NXBATCH [flags] FILE")
	}
	input := flag.Arg(0)

	d := sandbox.DemoData()
	if *data != "" {
		f, err := os.Open(*data)
		if err != nil {
			return err
		}
		d, err = sandbox.LoadData(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	sb, err := sandbox.Start(d, sandbox.Options{Latency: *latency, TimeScale: *scale}, "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer sb.Close()
	if *dir == "" {
		if *dir, err = os.MkdirTemp("", "nxbatch-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(*dir)
	}
	jarg := *jflag
	if *pg {
		srv, err := pgtest.Start()
		if err != nil {
			return err
		}
		defer srv.Stop()
		if jarg, err = srv.NewDatabase(context.Background(), "bench"); err != nil {
			return err
		}
	}
	if jarg == "" {
		jarg = filepath.Join(*dir, "journal")
	}
	journalKind = "bbolt"
	if strings.HasPrefix(jarg, "postgres") {
		journalKind = "PostgreSQL"
	}
	args := []string{"run", "--base-url", sb.URL, "--time-scale", strconv.FormatFloat(*scale, 'g', -1, 64),
		"--journal", jarg, "--report-dir", filepath.Join(*dir, "reports"),
		"--workers", strconv.Itoa(*workers), "--rate", strconv.FormatFloat(*rate, 'g', -1, 64),
		"--max-articulos", strconv.Itoa(*maxArt), "--max-errors", "0"}
	if !*xlsx {
		args = append(args, "--no-xlsx")
	}
	args = append(args, input)
	cmd := exec.Command(*bin, args...)
	cmd.Env = append(os.Environ(), "NX_TOKEN="+sandbox.DefaultToken)
	cmd.Stderr = os.Stderr
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		return fmt.Errorf("nxbatch run: %w\n%s", err, out)
	}
	st := sb.Server.State()

	if *kind == "stock" {
		return stockFigures(st, input, *maxArt, *scale, wall)
	}
	return ventaFigures(st, *workers, *rate, *latency, wall)
}

func ventaFigures(st sandbox.State, workers int, rate float64, latency, wall time.Duration) error {
	n := len(st.Vouchers)
	if n < 2 {
		return fmt.Errorf("only %d vouchers created", n)
	}
	span := st.Vouchers[n-1].CreatedAt.Sub(st.Vouchers[0].CreatedAt)
	tput := float64(n-1) / span.Seconds()
	bound := math.Inf(1)
	if latency > 0 {
		bound = float64(workers) / latency.Seconds()
	}
	if rate > 0 {
		bound = min(bound, rate)
	}
	if *bucketsFlag > 0 {
		t0, counts := st.Vouchers[0].CreatedAt, map[int]int{}
		for _, v := range st.Vouchers {
			counts[int(v.CreatedAt.Sub(t0) / *bucketsFlag)]++
		}
		for i := 0; i <= int(span / *bucketsFlag); i++ {
			fmt.Printf("  from %v: %.1f req/s\n", time.Duration(i)**bucketsFlag, float64(counts[i])/bucketsFlag.Seconds())
		}
	}
	fmt.Printf("venta: %d sales, --workers %d --rate %g, latency %v, %s journal: wall %.2fs, sending %.2fs, "+
		"throughput %.1f req/s, bound %.1f req/s, %.1f%% of bound\n",
		n, workers, rate, latency, journalKind, wall.Seconds(), span.Seconds(), tput, bound, 100*tput/bound)
	return nil
}

func stockFigures(st sandbox.State, input string, maxArt int, scale float64, wall time.Duration) error {
	perDep, err := rowsPerWarehouse(input)
	if err != nil {
		return err
	}
	minimum, rows := 0, 0
	for _, n := range perDep {
		minimum += (n + maxArt - 1) / maxArt
		rows += n
	}
	n := len(st.Movements)
	if n < 2 {
		return fmt.Errorf("only %d movements accepted", n)
	}
	window := time.Duration(float64(stockWindow) * scale)
	bound := time.Duration(n-1) * window
	span := st.Movements[n-1].Arrived.Sub(st.Movements[0].Arrived)
	fmt.Printf("stock: %d rows over %d warehouses, --max-articulos %d: %d movement requests (minimum %d); "+
		"window %v; sending %.2fs, wall %.2fs, (requests-1) x window %.2fs, wall %+.1f%%\n",
		rows, len(perDep), maxArt, n, minimum, window, span.Seconds(), wall.Seconds(), bound.Seconds(),
		100*(wall.Seconds()/bound.Seconds()-1))
	return nil
}

// rowsPerWarehouse counts the data rows of a stock CSV per depositoId (its
// first column).
func rowsPerWarehouse(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		dep, _, _ := strings.Cut(sc.Text(), ",")
		m[dep]++
	}
	return m, sc.Err()
}
