// Package pgtest starts a PostgreSQL server of a test's own: Debian's
// postgresql binaries, a data folder made by initdb in a temporary folder,
// a private port on 127.0.0.1, stopped and removed at the end. Tests of the
// PostgreSQL journal use it instead of a shared server or a mock, so that
// what they prove is what a real server does.
//
// PostgreSQL refuses to run as root, and tests and CI run as root: then the
// server runs as the unprivileged user the package created (postgres), or
// nobody.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNotInstalled means no PostgreSQL server binaries were found. Its text
// names the Debian package to install: a missing server is a failure of
// the machine, never a reason to skip a test.
var ErrNotInstalled = errors.New("PostgreSQL is not installed: initdb and postgres were looked for in /usr/lib/postgresql/*/bin and PATH; install Debian's package postgresql (apt-get install postgresql; .ci/run does it)")

// User is the role the tests connect as: the server's superuser.
const User = "nxbatch"

// Server is a running private PostgreSQL server.
type Server struct {
	Port     int
	Dir      string // the temporary folder: data, socket, log
	password string
	bin      string
	cred     *syscall.Credential
	cmd      *exec.Cmd
	exited   chan error
}

// binaries finds initdb and postgres of one installation: Debian's
// versioned folders first, newest first, then PATH.
func binaries() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	if p, err := exec.LookPath("initdb"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			dirs = append(dirs, filepath.Dir(r))
		}
	}
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", ErrNotInstalled
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// serverUser is who the server runs as: nil (ourselves) unless we are root.
func serverUser() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("pgtest: running as root and there is neither a postgres nor a nobody user to run PostgreSQL as")
}

// Start makes a data folder with initdb and starts a server on a free port
// of 127.0.0.1 (and a Unix socket in its folder), with password
// authentication over TCP. Stop ends it and removes the folder.
func Start() (*Server, error) {
	bin, err := binaries()
	if err != nil {
		return nil, err
	}
	cred, err := serverUser()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "nxbatch-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	s := &Server{Dir: dir, bin: bin, cred: cred, password: randomHex(12)}
	if err := s.initdb(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		err = s.start()
		if err == nil {
			return s, nil
		}
		if attempt == 2 {
			os.RemoveAll(dir)
			return nil, err
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// command prepares a PostgreSQL binary run as the server's user.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.Dir
	cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
	// The server dies with the test process, even when that one is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Pdeathsig: syscall.SIGKILL}
	return cmd
}

func (s *Server) initdb() error {
	pw := filepath.Join(s.Dir, "pwfile")
	if err := os.WriteFile(pw, []byte(s.password+"\n"), 0o600); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	if s.cred != nil {
		for _, p := range []string{s.Dir, pw} {
			if err := os.Chown(p, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
				return fmt.Errorf("pgtest: give %s to the server's user: %w", p, err)
			}
		}
	}
	cmd := s.command("initdb", "-D", filepath.Join(s.Dir, "data"), "-U", User, "--pwfile", pw,
		"--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	return os.Remove(pw)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// start runs the server and waits until it answers. fsync stays on: the
// journal's durability is part of what the tests and benchmarks measure.
func (s *Server) start() error {
	port, err := freePort()
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	s.Port = port
	logf, err := os.OpenFile(filepath.Join(s.Dir, "server.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer logf.Close()
	cmd := s.command("postgres", "-D", filepath.Join(s.Dir, "data"), "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+s.Dir,
		"-c", "max_connections=300", "-c", "shared_buffers=64MB", "-c", "fsync=on",
		"-c", "synchronous_commit=on", "-c", "log_min_messages=warning")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: start postgres: %w", err)
	}
	s.cmd, s.exited = cmd, make(chan error, 1)
	go func() { s.exited <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := pgx.Connect(ctx, s.URL("postgres"))
		cancel()
		if err == nil {
			c.Close(context.Background())
			return nil
		}
		select {
		case <-s.exited:
			log, _ := os.ReadFile(filepath.Join(s.Dir, "server.log"))
			return fmt.Errorf("pgtest: postgres ended at start:\n%s", log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.kill()
			return fmt.Errorf("pgtest: postgres did not answer within a minute: %v", err)
		}
	}
}

// URL is the address of database db, with the role's password.
func (s *Server) URL(db string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(User, s.password),
		Host: "127.0.0.1:" + strconv.Itoa(s.Port), Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// Password is the role's password, for tests that check it is never
// printed.
func (s *Server) Password() string { return s.password }

// Exec runs sql as the superuser on database db.
func (s *Server) Exec(ctx context.Context, db, sql string, args ...any) error {
	c, err := pgx.Connect(ctx, s.URL(db))
	if err != nil {
		return fmt.Errorf("pgtest: connect to %s: %w", db, err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(ctx, sql, args...); err != nil {
		return fmt.Errorf("pgtest: %s: %w", firstLine(sql), err)
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// NewDatabase creates an empty database named name and returns its URL.
func (s *Server) NewDatabase(ctx context.Context, name string) (string, error) {
	if err := s.Exec(ctx, "postgres", "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", err
	}
	return s.URL(name), nil
}

// Cut cuts every connection to database db and refuses new ones, as a
// network cut or a server gone would: what uses db from then on fails.
func (s *Server) Cut(ctx context.Context, db string) error {
	if err := s.Exec(ctx, "postgres", "ALTER DATABASE "+pgx.Identifier{db}.Sanitize()+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return err
	}
	return s.Exec(ctx, "postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", db)
}

// Mend lets connections to db in again after Cut.
func (s *Server) Mend(ctx context.Context, db string) error {
	return s.Exec(ctx, "postgres", "ALTER DATABASE "+pgx.Identifier{db}.Sanitize()+" WITH ALLOW_CONNECTIONS true")
}

// Stop shuts the server down (fast shutdown) and removes its folder.
func (s *Server) Stop() error {
	if s == nil {
		return nil
	}
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			s.kill()
		}
	}
	return os.RemoveAll(s.Dir)
}

func (s *Server) kill() {
	_ = s.cmd.Process.Kill()
	<-s.exited
}
