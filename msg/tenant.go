package msg

// Which tenant a connection talks to (package tenant).
func init() {
	register(map[string]Text{
		"tenant.describe": {ES: "«%s», depósitos %s, sucursales %s", EN: "\"%s\", warehouses %s, branches %s"},
		"tenant.known":    {ES: "%s (%s)", EN: "%s (%s)"},
		"tenant.badname": {
			ES: "el nombre de tenant «%s» no sirve: use letras, números y . _ - @ : (sin barras), hasta 100 caracteres",
			EN: "the tenant name \"%s\" cannot be used: use letters, digits and . _ - @ : (no slashes), up to 100 characters",
		},
		"tenant.ambiguous": {
			ES: "la API en %s dice ser la integración %d (%s), y nxbatch ya conoce ese número en esa dirección con otra estructura: %s. No se envió nada: podría ser la misma tienda con un token nuevo después de un cambio, u otra tienda detrás de la misma dirección, y enviar bajo el tenant equivocado diría «ya enviadas» filas que esta cuenta no tiene. Si es la misma integración con un token nuevo, registre la rotación repitiendo el comando con --tenant %s; si es otra tienda, repita con un nombre nuevo, por ejemplo --tenant %s",
			EN: "the API at %s says it is integration %d (%s), and nxbatch already knows that number at that address with another structure: %s. Nothing was sent: it could be the same shop with a new token after a change, or another shop behind the same address, and sending under the wrong tenant would call rows \"already sent\" that this account does not hold. If it is the same integration with a new token, record the rotation by repeating the command with --tenant %s; if it is another shop, repeat with a new name, for example --tenant %s",
		},
		"tenant.bound": {
			ES: "este token ya pertenece al tenant %s, no a %s: quite --tenant o indique --tenant %[1]s",
			EN: "this token already belongs to tenant %s, not to %s: drop --tenant or give --tenant %[1]s",
		},
		"tenant.othername": {
			ES: "el tenant %s es la integración de %s (appId %d, entorno %s), y esta conexión es %s (appId %d, entorno %s): no se envió nada. Un tenant no puede ser dos integraciones; elija otro nombre con --tenant",
			EN: "tenant %s is the integration at %s (appId %d, environment %s), and this connection is %s (appId %d, environment %s): nothing was sent. One tenant cannot be two integrations; choose another name with --tenant",
		},
		"tenant.legacy": {
			ES: "el diario de una versión anterior guarda envíos bajo «%s», escritos por más de una integración o con otro token (%s), y no se puede saber cuáles son de la API en %s (%s). No se envió nada. Si esos envíos son de esta integración, repita con --tenant %[1]s (lo ya enviado no se reenvía); si no lo son, repita con --tenant %[5]s (un tenant nuevo: lo que esta cuenta no tenga se enviará)",
			EN: "a journal of an earlier version holds sends under \"%s\", written by more than one integration or with another token (%s), and it cannot be told which belong to the API at %s (%s). Nothing was sent. If those sends are this integration's, repeat with --tenant %[1]s (nothing already sent is sent again); if not, repeat with --tenant %[5]s (a new tenant: what this account lacks will be sent)",
		},
		"tenant.legacy.unrecorded": {
			ES: "el diario guarda envíos bajo «%s» (el nombre que una versión anterior daba a toda integración con ese número), y en esta máquina no queda registro de a qué API fueron: pudieron ser de la API en %s (%s), de otra, o del sandbox embebido. No se envió nada. Si esos envíos son de esta integración, repita con --tenant %[1]s (lo ya enviado no se reenvía); si no lo son, repita con --tenant %[4]s (un tenant nuevo: lo que esta cuenta no tenga se enviará)",
			EN: "the journal holds sends under \"%s\" (the name an earlier version gave every integration with that number), and this machine keeps no record of which API they went to: the API at %s (%s), another one, or the embedded sandbox. Nothing was sent. If those sends are this integration's, repeat with --tenant %[1]s (nothing already sent is sent again); if not, repeat with --tenant %[4]s (a new tenant: what this account lacks will be sent)",
		},
		"tenant.legacy.carried": {
			ES: "el diario de la versión anterior sigue valiendo: sus envíos bajo «%s» son de la API en %s, y no se reenvían",
			EN: "the journal of the earlier version still holds: its sends under \"%s\" belong to the API at %s, and are not sent again",
		},
		"tenant.legacy.claimed": {
			ES: "los envíos del diario anterior bajo «%s» quedan asignados a esta integración, como se indicó con --tenant",
			EN: "the earlier journal's sends under \"%s\" now belong to this integration, as --tenant said",
		},
		"tenant.new": {
			ES: "tenant nuevo %s: la API en %s, integración %d (%s)",
			EN: "new tenant %s: the API at %s, integration %d (%s)",
		},
		"tenant.rotated": {
			ES: "token nuevo para el tenant %s (misma dirección, integración y estructura): se toma como una rotación del token; lo ya enviado no se reenvía",
			EN: "a new token for tenant %s (same address, integration and structure): taken as a rotation of the token; nothing already sent is sent again",
		},
		"tenant.rotated.named": {
			ES: "token nuevo registrado para el tenant %s, como se indicó con --tenant; lo ya enviado no se reenvía",
			EN: "a new token recorded for tenant %s, as --tenant said; nothing already sent is sent again",
		},
		"tenant.structure": {
			ES: "la integración del tenant %s cambió (antes %s; ahora %s): sigue siendo el mismo tenant",
			EN: "the integration of tenant %s changed (before %s; now %s): it is still the same tenant",
		},
		"tenant.damaged": {
			ES: "el archivo de tenants %s está dañado (no es el JSON que nxbatch escribe): no se envió nada. Recupérelo de una copia; si lo borra, cada token nuevo se volverá a identificar con GET /config",
			EN: "the tenants file %s is damaged (not the JSON nxbatch writes): nothing was sent. Restore it from a copy; if you delete it, every token will be identified again with GET /config",
		},
		"tenant.version": {
			ES: "el archivo de tenants %s es de una versión más nueva de nxbatch (formato %d): actualice nxbatch",
			EN: "the tenants file %s was written by a newer nxbatch (format %d): update nxbatch",
		},
	})
}
