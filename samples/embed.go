// Package samples holds the demo data that ships inside the nxbatch binary.
package samples

import _ "embed"

// SandboxData is the API sandbox's demo data (sandbox.json): the branches,
// warehouses, catalogs, presales and articles that `nxbatch sandbox` and
// `nxbatch run --sandbox` serve when no data file is given.
//
//go:embed sandbox.json
var SandboxData []byte
