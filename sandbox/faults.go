package sandbox

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"time"
)

// faultKind is what the fault injector decided for one creating POST.
type faultKind int

const (
	faultNone faultKind = iota
	fault500
	faultDrop
	faultHang
)

// faults holds the injection settings.
type faults struct {
	latency             time.Duration
	fail500, drop, hang float64
	seed                int64
}

func newFaults(o Options) (faults, error) {
	f := faults{latency: o.Latency, fail500: o.Fail500, drop: o.DropAfter, hang: o.Hang, seed: o.Seed}
	for name, v := range map[string]float64{"fail500": f.fail500, "drop": f.drop, "hang": f.hang} {
		if v < 0 || v > 1 || math.IsNaN(v) {
			return f, fmt.Errorf("sandbox: fault fraction %s=%v must be between 0 and 1", name, v)
		}
	}
	if f.fail500+f.drop+f.hang > 1 {
		return f, fmt.Errorf("sandbox: fault fractions add up to %v, more than 1", f.fail500+f.drop+f.hang)
	}
	if f.latency < 0 {
		return f, fmt.Errorf("sandbox: latency %v must not be negative", f.latency)
	}
	return f, nil
}

// faultHash starts the draw of a creating POST: the hash of the seed, the
// endpoint and the body, taken outside the lock (a body may be megabytes).
// It is nil when no fault is configured.
func (s *Server) faultHash(pattern string, body []byte) hash.Hash64 {
	f := s.fault
	if f.fail500+f.drop+f.hang == 0 {
		return nil
	}
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(f.seed))
	h.Write(b[:])
	h.Write([]byte(pattern))
	h.Write([]byte{0})
	h.Write(body)
	return h
}

// drawFaultLocked decides the fate of a creating POST the API would
// process; s.mu must be held. The draw hashes the seed, the endpoint, the
// body and the number of earlier draws for that same body, so it does not
// depend on how concurrent requests interleave: the same run against the
// same seed meets the same faults. Requests the API refuses draw nothing.
func (s *Server) drawFaultLocked(h hash.Hash64) faultKind {
	if h == nil {
		return faultNone
	}
	f := s.fault
	bodyKey := h.Sum64()
	n := s.bodySeen[bodyKey]
	s.bodySeen[bodyKey] = n + 1
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
	u := float64(mix(h.Sum64())>>11) / (1 << 53)
	switch {
	case u < f.fail500:
		return fault500
	case u < f.fail500+f.drop:
		return faultDrop
	case u < f.fail500+f.drop+f.hang:
		return faultHang
	}
	return faultNone
}

// mix is splitmix64's finalizer; FNV's high bits alone are poorly spread.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
