// Package journal is nxbatch's exactly-once journal, whatever keeps it: the
// types (Key, Entry, State, Intent, Outcome, Verdict, Record...), the errors,
// the send rule (State.Sendable), the interfaces callers need (Store and its
// parts SendPath, Admin, Process, Windows, Copier) and Copy between two
// stores. The stores are package boltjournal (a bbolt file on one machine)
// and package pgjournal (a PostgreSQL database shared by several); package
// journaltest is the contract both keep.
//
// A journal records, for every request, the intent before it is sent and the
// outcome after, so that no run ever sends twice what may already have been
// processed. The life of an entry:
//
//	Begin                  -> Sending   (durable before the request leaves)
//	Finish                 -> OK | Rejected | Unknown | Unsent
//	Opened after a crash   Sending -> Unknown
//	Resolve (operator)     Unknown -> OK | Failed
//
// Rejected, Failed and Unsent entries may be sent again; OK, Unknown and
// Sending entries are refused, and so is a key whose previous attempt may
// have reached the API less than Intent.Hold ago.
package journal
