package writers

import (
	"encoding/json"
	"io"
	"time"
)

// Summary is the machine-readable run summary (NAME.summary.json) and the
// source of the XLSX report's summary sheet.
type Summary struct {
	File    string `json:"file"`
	SHA256  string `json:"sha256"`
	Tool    string `json:"tool"`    // "nxbatch v0.1.0"
	Command string `json:"command"` // "validate" | "run"
	// API says which API and tenant the run spoke to; nil when it spoke to
	// none (validate --offline).
	API             *API           `json:"api,omitempty"`
	Kinds           []string       `json:"kinds"`
	Started         time.Time      `json:"started"`
	Finished        time.Time      `json:"finished"`
	Seconds         float64        `json:"seconds"`
	Rows            map[string]int `json:"rows"`     // rows per status
	Requests        map[string]int `json:"requests"` // requests per status
	RequestsPlanned int            `json:"requestsPlanned"`
	RequestsSent    int            `json:"requestsSent"`
	// TotalInvoiced is the total of the sales this run created, exact
	// decimal text ("123456.78"); only for files with sales.
	TotalInvoiced string `json:"totalInvoiced,omitempty"`
	// UnitsMoved is, for stock, the units this run moved per movement type
	// (INGRESO_STOCK, EGRESO_STOCK, ...), exact decimal text.
	UnitsMoved map[string]string `json:"unitsMoved,omitempty"`
	// Orders counts, for orders and their cancellations, the orders this
	// run created, marked paid and cancelled.
	Orders  *OrderCounts `json:"orders,omitempty"`
	Created []Created    `json:"created"` // ids the API returned
	// Stopped says why the run stopped before sending everything; empty
	// when it did not.
	Stopped string `json:"stopped,omitempty"`
	// ReportName is the name the reports were given when it is not the
	// input's own (another input would have had the same), and
	// RenamedBecause says why.
	ReportName     string   `json:"reportName,omitempty"`
	RenamedBecause string   `json:"renamedBecause,omitempty"`
	Warnings       []string `json:"warnings,omitempty"`
	// RejectedBefore counts the rows not sent again because the API
	// rejected them in an earlier run and they have not changed since
	// (their status is rejected; their message says so).
	RejectedBefore int `json:"rejectedBefore,omitempty"`
	// RunReports is where this run's own copy of its result and summary
	// is kept, the reports' folder's relative path without suffixes
	// ("ventas.runs/2026-12-02 11.26.08"), for a run that sent something:
	// the next run replaces the files at the usual names, never these.
	RunReports string `json:"runReports,omitempty"`
	// Statuses is the status table of the summary sheet, in report order;
	// summary.json has the same counts in Rows and Requests.
	Statuses []StatusLine `json:"-"`
}

// API is the API a run spoke to: its base URL (never the token), the
// journal's tenant, and whether it was the embedded sandbox (which creates
// nothing in any ERP).
type API struct {
	BaseURL string `json:"baseUrl"`
	Tenant  string `json:"tenant"`
	Sandbox bool   `json:"sandbox"`
}

// StatusLine is one status of the summary sheet's table: its code, its
// word and what it means in the report's language, its counts and its row
// colour.
type StatusLine struct {
	Code     string
	Word     string // "rechazada"; "" shows the code
	Meaning  string
	Rows     int
	Requests int
	Tone     Tone
}

// Created is one voucher or stock movement the API created, with the input
// rows that went into it.
type Created struct {
	Request   string `json:"request"`
	FacturaID int64  `json:"facturaId"`
	Numero    int64  `json:"numero"`
	PVNumero  int64  `json:"pvNumero"`
	// Rows are the input rows that went into it, as ranges [first, last].
	Rows [][2]int `json:"rows"`
}

// AddRow extends the ranges of rows with row, rows coming in increasing
// order.
func AddRow(rows [][2]int, row int) [][2]int {
	if n := len(rows); n > 0 && rows[n-1][1]+1 == row {
		rows[n-1][1] = row
		return rows
	}
	return append(rows, [2]int{row, row})
}

// WriteSummaryJSON writes s to path as indented JSON, atomically. Nil maps
// and slices are written as {} and [] so that a cron job can read the file
// without checking for null.
func WriteSummaryJSON(path string, s Summary) error {
	if s.Kinds == nil {
		s.Kinds = []string{}
	}
	if s.Rows == nil {
		s.Rows = map[string]int{}
	}
	if s.Requests == nil {
		s.Requests = map[string]int{}
	}
	created := make([]Created, len(s.Created))
	for i, c := range s.Created {
		if c.Rows == nil {
			c.Rows = [][2]int{}
		}
		created[i] = c
	}
	s.Created = created // a copy: the caller's slice is left as it was
	return writeFileAtomic(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // API messages are quoted as they are, "<" included
		return enc.Encode(s)
	})
}

// OrderCounts are the orders a run created, marked paid (created paid, or
// by their paid update) and cancelled.
type OrderCounts struct {
	Created   int `json:"created"`
	Paid      int `json:"paid"`
	Cancelled int `json:"cancelled"`
}
