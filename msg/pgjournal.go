package msg

// Messages of the PostgreSQL journal: a tenant in use by another run, a
// lease lost, a database that cannot be used.
func init() {
	register(map[string]Text{
		"pgj.locked": {
			ES: "Otra ejecución de nxbatch está usando el diario %s para la integración %s (%s): espere a que termine o deténgala, y vuelva a intentar",
			EN: "Another nxbatch run is using the journal %s for the integration %s (%s): wait for it to finish or stop it, then try again",
		},
		"pgj.holder": {
			ES: "en %s, pid %d, turno vigente hasta las %s",
			EN: "on %s, pid %d, lease held until %s",
		},
		"pgj.leaselost": {
			ES: "Esta ejecución perdió el turno de la integración %s en el diario %s (no pudo renovarlo a tiempo y otra ejecución pudo tomarlo): no envía nada más. Lo que estaba en curso quedará como desconocido",
			EN: "This run lost its lease on the integration %s in the journal %s (it could not renew it in time and another run may have taken it): it sends nothing more. What was in flight will be unknown",
		},
		"pgj.failed": {
			ES: "No se pudo escribir en el diario %s (%s): esta ejecución se detiene y no envía nada más. Vuelva a ejecutar cuando el servidor PostgreSQL responda; lo que estaba en curso quedará como desconocido",
			EN: "Could not write to the journal %s (%s): this run stops and sends nothing more. Run again once the PostgreSQL server answers; what was in flight will be unknown",
		},
		"pgj.connect": {
			ES: "No se pudo usar el diario %s: %s. Revise la URL de --journal (o NXBATCH_JOURNAL), la red y que el servidor PostgreSQL esté en marcha",
			EN: "The journal %s cannot be used: %s. Check the --journal URL (or NXBATCH_JOURNAL), the network and that the PostgreSQL server is running",
		},
		"pgj.newerschema": {
			ES: "El diario %s fue creado por una versión más nueva de nxbatch (esquema %d; esta conoce hasta el %d): actualice nxbatch en todas las máquinas",
			EN: "The journal %s was written by a newer nxbatch (schema %d; this one knows up to %d): update nxbatch on every machine",
		},
		"pgj.nocreate": {
			ES: "El usuario del diario %s no puede crear ni actualizar su esquema (tiene la versión %d; esta nxbatch usa la %d): ejecute nxbatch una vez con un usuario que tenga CREATE en la base (el dueño del esquema), por ejemplo «nxbatch journal list --journal URL-DEL-DUEÑO», y vuelva a intentar",
			EN: "The journal %s's user cannot create or update its schema (it is at version %d; this nxbatch uses %d): run nxbatch once as a user with CREATE on the database (the schema's owner), e.g. «nxbatch journal list --journal OWNER-URL», then try again",
		},
		"pgj.badparam": {
			ES: "El parámetro %s=%s de la URL del diario %s no es válido: %s",
			EN: "The parameter %s=%s of the journal URL %s is not valid: %s",
		},
		"pgj.want.duration": {
			ES: "debe ser una duración de 1s o más, como 30s o 2m",
			EN: "it must be a duration of 1s or more, such as 30s or 2m",
		},
		"pgj.want.count": {
			ES: "debe ser un número entero de 1 o más",
			EN: "it must be a whole number of 1 or more",
		},
		"pgj.badurl": {
			ES: "La URL del diario no es válida (%s): use postgres://usuario@servidor:5432/base",
			EN: "The journal URL is not valid (%s): use postgres://user@host:5432/database",
		},
		"pgj.noaccept": {
			ES: "«journal accept» es solo para un diario en archivo (bbolt); un diario en PostgreSQL no tiene registro de transacciones a su lado que aceptar",
			EN: "«journal accept» is only for a journal file (bbolt); a PostgreSQL journal has no transaction record beside it to accept",
		},
	})
}

// Messages of `journal copy`.
func init() {
	register(map[string]Text{
		"jrn.copied": {
			ES: "leído de %[4]s: entradas: %[1]d; filas: %[2]d; ventanas de límite de la API: %[3]d. Escrito en %[6]s: %[5]d; ya estaban iguales: %[7]d; distintas (no se sobrescribieron): %[8]d",
			EN: "read from %[4]s: entries: %[1]d; rows: %[2]d; API rate windows: %[3]d. Written to %[6]s: %[5]d; already the same: %[7]d; different (not overwritten): %[8]d",
		},
		"jrn.copy.differs": {
			ES: "%s: el diario de destino ya la tiene distinta (%s); no se sobrescribe. Revise cuál es la correcta antes de usar el destino",
			EN: "%s: the destination journal already has it, different (%s); it is not overwritten. Check which one is right before using the destination",
		},
		"jrn.copy.unitdiffers": {
			ES: "fila %s de %s: el diario de destino ya la tiene distinta (%s); no se sobrescribe",
			EN: "row %s of %s: the destination journal already has it, different (%s); it is not overwritten",
		},
		"jrn.copy.nofrom": {
			ES: "no se puede leer el diario de origen %s: %s. Revise --from",
			EN: "cannot read the source journal %s: %s. Check --from",
		},
		"cli.journal.path": {
			ES: "--journal %s no es un nombre de archivo que se pueda usar: %s",
			EN: "--journal %s is not a file name that can be used: %s",
		},
		"jrn.copy.self": {
			ES: "%s es el mismo diario de origen y de destino: no hay nada que copiar",
			EN: "%s is both the source and the destination: there is nothing to copy",
		},
	})
}
