package msg

// Messages of the journal: why an entry ended up unknown, and why a run
// cannot use the journal right now.
func init() {
	register(map[string]Text{
		"jrn.interrupted": {
			ES: "en curso cuando se detuvo la ejecución anterior",
			EN: "in flight when the previous run stopped",
		},
		"jrn.locked": {
			ES: "Otra ejecución de nxbatch está usando el diario %s: espere a que termine o deténgala, y vuelva a intentar",
			EN: "Another nxbatch run is using the journal %s: wait for it to finish or stop it, then try again",
		},
		"jrn.too_soon": {
			ES: "%s se envió hace menos de %s: la API retiene la clave; se puede reenviar en %s",
			EN: "%s was sent less than %s ago: the API holds the key; it can be sent again in %s",
		},
		"jrn.not_sendable": {
			ES: "%s figura como «%s» en el diario: no se reenvía para no duplicarlo",
			EN: "%s is \"%s\" in the journal: it is not sent again so it is not duplicated",
		},
	})
}
