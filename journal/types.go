package journal

import (
	"errors"
	"fmt"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// State is where a journaled request stands.
type State string

// The states of an entry.
const (
	Sending  State = "sending"  // intent durable, outcome not yet known
	OK       State = "ok"       // the API created it
	Rejected State = "rejected" // the API refused it; a later run may try again
	Unknown  State = "unknown"  // may have been processed; never resent unless RetryUnknown
	Failed   State = "failed"   // settled as NOT created (an operator, or reconciliation): may be sent again
	Unsent   State = "unsent"   // the request provably never left: may be sent again at once
)

// States lists every state, for flags and listings.
var States = []State{Sending, OK, Rejected, Unknown, Failed, Unsent}

// Valid reports whether s is one of the defined states. Stores check it
// when they read or import an entry.
func (s State) Valid() bool {
	for _, x := range States {
		if s == x {
			return true
		}
	}
	return false
}

// Sendable is the send rule: whether a request (or a unit, by the state
// of the request that last carried it) in state s may be sent again.
// Rejected, Failed and Unsent may; Unknown only when the operator accepts
// the risk of a duplicate (retryUnknown, --retry-unknown); OK and Sending
// never. It is the only copy in Go; PostgreSQL's nxbatch.begin_intent has
// its own in SQL, held to this one by pgjournal's TestSendRuleAgrees.
func (s State) Sendable(retryUnknown bool) bool {
	switch s {
	case Rejected, Failed, Unsent:
		return true
	case Unknown:
		return retryUnknown
	}
	return false
}

// Entry is the journal's record of one request.
type Entry struct {
	Key      Key
	BodyHash string
	State    State
	// Attempts counts the times the request may have reached the API: an
	// attempt that provably never left is not counted.
	Attempts    int
	First, Last time.Time // first and last intent
	// Held is the latest moment an attempt that may have reached the API
	// could have arrived there (its answer, or the recovery after a crash):
	// a key hold counts from it. Zero when no attempt may have arrived.
	Held                        time.Time
	FacturaID, Numero, PVNumero int64
	Message                     string // API text or reason
	Note                        string // operator's note from Resolve
	Source                      string // e.g. "ventas.csv rows 2,5,9" for listings
	Updated                     time.Time
	// Units are the identities of the units (stock rows) the request
	// carried, in the order it carried them.
	Units []string
	// Evidence is what reconciliation read to settle the entry, and when
	// (JSON text); "" otherwise.
	Evidence string
	// Facts are what the caller knew of the request when its last attempt
	// began (Intent.Facts): opaque text to the journal, valid for the body
	// of BodyHash; "" when none were given.
	Facts string
}

// Unit is one unit a request carries: a stock row with its identity, the
// hash of what it contributed to the body, that contribution in short
// (for messages: the quantity already sent) and where it came from.
type Unit struct {
	ID       string
	BodyHash string
	Body     string
	Source   string
}

// UnitRecord is a unit as the journal knows it: the last request that
// carried it.
type UnitRecord struct {
	Unit
	Request Key
}

// Mark moves a persisted rate window: the next request of window Name may
// leave at Next. It is written in the same transaction as the intent or the
// outcome that carries it.
type Mark struct {
	Tenant, Name string
	Next         time.Time
}

// Intent is what Begin records before a request leaves.
type Intent struct {
	BodyHash string
	Source   string
	// Hold refuses the key while its previous attempt may have arrived at
	// the API less than Hold ago (0: no hold).
	Hold  time.Duration
	Units []Unit
	// Facts are what the caller wants kept of this attempt's body for a
	// later reading of its outcome (for a sale, its total, customer and
	// point of sale as JSON): opaque to the journal, written with every
	// attempt like BodyHash ("" clears those of an earlier attempt) and
	// kept by Finish and Resolve.
	Facts string
	// Window, when set, is persisted with the intent: until the answer
	// comes, the window counts from the latest moment the request could
	// arrive.
	Window *Mark
}

// Outcome is what Finish records once the answer is known.
type Outcome struct {
	State                       State // OK, Rejected, Unknown or Unsent
	FacturaID, Numero, PVNumero int64
	Message                     string
	Window                      *Mark
}

// Options configure opening a store: boltjournal.Open takes them, and
// pgjournal.Options carries them.
type Options struct {
	// LockTimeout is how long Open waits for another process's lock: 0 fails
	// at once with ErrLocked, a negative value waits as long as it takes.
	LockTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// NoSync skips fsync (the bbolt store only). ONLY for benchmarks
	// comparing; the default (false) is durable.
	NoSync bool
	// RetryUnknown lets Begin send again a key (or a unit) whose outcome is
	// Unknown (the --retry-unknown flag: the operator accepts the risk of a
	// duplicate).
	RetryUnknown bool
}

var (
	// ErrLocked means another nxbatch process holds the journal. Open wraps it
	// in a *msg.Error naming the file and telling the user to wait for the
	// other run or stop it.
	ErrLocked = errors.New("journal locked by another nxbatch process")
	// ErrTooSoon means the key's previous attempt is younger than the key
	// hold; Begin returns it as a *TooSoonError carrying the time left.
	ErrTooSoon = errors.New("journal: key attempted too recently")
	// ErrNotSendable means Begin refused a key (or a unit) that is OK,
	// Unknown or still Sending; Begin returns it as a *NotSendableError.
	ErrNotSendable = errors.New("journal: key must not be sent again")
	// ErrNotFound means the key has no entry.
	ErrNotFound = errors.New("journal: no entry for key")
	// ErrWrongState means Finish or Resolve was called on an entry in a state
	// that does not allow it (Finish needs Sending; Resolve needs Unknown or
	// Sending).
	ErrWrongState = errors.New("journal: entry is not in a state that allows this")
)

// TooSoonError is Begin's refusal of a key attempted less than the key hold
// ago. Wait is the time left; it matches ErrTooSoon with errors.Is.
type TooSoonError struct {
	Key  Key
	Hold time.Duration
	Wait time.Duration
}

func (e *TooSoonError) Error() string {
	return fmt.Sprintf("journal: %s was attempted less than %s ago; wait %s", e.Key, e.Hold, e.Wait)
}

// Is makes errors.Is(err, ErrTooSoon) true.
func (e *TooSoonError) Is(target error) bool { return target == ErrTooSoon }

// Message is the user-facing text of e.
func (e *TooSoonError) Message() msg.Message {
	return msg.New("jrn.too_soon", e.Key.Business, msg.Duration(e.Hold), msg.Duration(e.Wait.Round(time.Second/10)))
}

// NotSendableError is Begin's refusal of a key whose entry is OK, Unknown or
// Sending, or of a request carrying a unit whose request is. It matches
// ErrNotSendable with errors.Is.
type NotSendableError struct {
	Key   Key
	Unit  string // the unit that was refused, "" when the key itself was
	State State
}

func (e *NotSendableError) Error() string {
	if e.Unit != "" {
		return fmt.Sprintf("journal: unit %s of %s was carried by a request that is %s: not sending it again", e.Unit, e.Key, e.State)
	}
	return fmt.Sprintf("journal: %s is %s: not sending it again", e.Key, e.State)
}

// Is makes errors.Is(err, ErrNotSendable) true.
func (e *NotSendableError) Is(target error) bool { return target == ErrNotSendable }

// Message is the user-facing text of e.
func (e *NotSendableError) Message() msg.Message {
	return msg.New("jrn.not_sendable", e.Key.Business, string(e.State))
}

// Verdict settles an entry whose outcome was not known.
type Verdict struct {
	As   State  // OK (it was created) or Failed (it was not; it may be sent again)
	Note string // how it is known: an operator's check, or what reconciliation read
	// FacturaID, Numero and PVNumero are the ids found in the ERP, for OK.
	FacturaID, Numero, PVNumero int64
	// Evidence is what was read to decide, and when (reconciliation's
	// record, as JSON text); "" for an operator's verdict.
	Evidence string
}

// Validate rejects a mark without a tenant or a name. Stores check it
// before they persist a window.
func (m *Mark) Validate() error {
	if m.Tenant == "" || m.Name == "" {
		return errors.New("journal: a rate window needs a tenant and a name")
	}
	return nil
}
