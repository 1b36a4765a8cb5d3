package msg

// Messages of the sandbox command (nxbatch sandbox).
func init() {
	register(map[string]Text{
		"sbx.serving": {
			ES: "Sandbox de la API en %s (Ctrl-C para detenerlo)",
			EN: "API sandbox serving %s (Ctrl-C to stop it)",
		},
		"sbx.baseurl": {
			ES: "  NX_BASE_URL=%s",
			EN: "  NX_BASE_URL=%s",
		},
		"sbx.token": {
			ES: "  token: %s (un token del sandbox, no un secreto)",
			EN: "  token: %s (a sandbox token, not a secret)",
		},
		"sbx.inspect": {
			ES: "  estado para pruebas: GET %s con el mismo token en X-NX-TOKEN",
			EN: "  state for tests: GET %s with the same token in X-NX-TOKEN",
		},
		"sbx.exportlag": {
			ES: "  las ventas aparecen en las exportaciones %s (tiempo de la API) después de creadas",
			EN: "  sales appear in the exports %s (API time) after they were created",
		},
		"sbx.stopping": {
			ES: "Sandbox detenido",
			EN: "Sandbox stopped",
		},
		"sbx.loopback": {
			ES: "--addr %s no es una dirección local (127.0.0.1, ::1 o localhost): el sandbox es para pruebas en esta máquina. Si de verdad tiene que poder usarse desde la red, agregue --allow-remote",
			EN: "--addr %s is not a local address (127.0.0.1, ::1 or localhost): the sandbox is meant for tests on this machine. If it really must be reachable from the network, add --allow-remote",
		},
		"sbx.remote": {
			ES: "Atención: el sandbox escucha en %s, fuera de esta máquina: cualquiera que alcance esa dirección puede usarlo con el token",
			EN: "Warning: the sandbox listens on %s, beyond this machine: anyone who reaches that address can use it with the token",
		},
		"sbx.addr.bad": {
			ES: "--addr %s no es una dirección válida (se espera HOST:PUERTO, por ejemplo 127.0.0.1:8091)",
			EN: "--addr %s is not a valid address (HOST:PORT expected, e.g. 127.0.0.1:8091)",
		},
		"sbx.data.bad": {
			ES: "No se pudo leer el archivo de datos del sandbox %s: %s. Indique en --data un JSON con la forma de samples/sandbox.json",
			EN: "The sandbox data file %s could not be read: %s. Give --data a JSON file shaped like samples/sandbox.json",
		},
		"sbx.state.bad": {
			ES: "No se puede usar el archivo de estado del sandbox %s: %s. No se lo reemplaza: si lo borra, el sandbox empieza de nuevo, vacío, y lo que ya se le envió se volverá a enviar",
			EN: "The sandbox state file %s cannot be used: %s. It is not replaced: if you delete it, the sandbox starts anew, empty, and what was already sent to it will be sent again",
		},
		"sbx.start": {
			ES: "No se pudo iniciar el sandbox en %s: %s. Indique otra dirección con --addr (127.0.0.1:0 elige un puerto libre)",
			EN: "The sandbox could not be started on %s: %s. Give another address with --addr (127.0.0.1:0 picks a free port)",
		},
	})
}
