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
			ES: "%s se envió hace menos de %s y la API puede estar procesando ese envío todavía: se podrá reenviar en %s",
			EN: "%s was sent less than %s ago and the API may still be processing it: it can be sent again in %s",
		},
		"jrn.not_sendable": {
			ES: "%s figura como «%s» en el diario: no se reenvía para no duplicarlo",
			EN: "%s is \"%s\" in the journal: it is not sent again so it is not duplicated",
		},
		"jrn.empty": {
			ES: "El diario %s está vacío (0 bytes): no se sabe qué se envió antes, y usarlo como nuevo podría facturar dos veces. Restaure la última copia; si es un archivo que nunca se usó, bórrelo y vuelva a ejecutar",
			EN: "The journal %s is empty (0 bytes): what was sent before is not known, and using it as new could invoice twice. Restore the latest copy; if the file was never used, delete it and run again",
		},
		"jrn.missing": {
			ES: "Falta el diario %s, pero su registro %s indica que existió y guardaba lo ya enviado: restáurelo. Si empieza de cero a propósito, borre también ese registro",
			EN: "The journal %s is missing, but its record %s shows it existed and held what was already sent: restore it. If you are starting over on purpose, delete that record too",
		},
		"jrn.notfile": {
			ES: "El diario %s no es un archivo común: indique con --journal la ruta de un archivo",
			EN: "The journal %s is not a regular file: give a file path with --journal",
		},
		"jrn.symlink": {
			ES: "El diario %s es un enlace simbólico, y nxbatch no escribe a través de enlaces: indique con --journal la ruta del archivo verdadero, o ponga el archivo en lugar del enlace",
			EN: "The journal %s is a symbolic link, and nxbatch does not write through links: give --journal the real file's path, or put the file in place of the link",
		},
		"jrn.hwm.symlink": {
			ES: "El registro %s del diario es un enlace simbólico, y nxbatch no escribe a través de enlaces: ponga el archivo en lugar del enlace, o bórrelo para que se vuelva a crear con el diario actual",
			EN: "The journal record %s is a symbolic link, and nxbatch does not write through links: put the file in place of the link, or delete it so that it is made again from the current journal",
		},
		"jrn.damaged": {
			ES: "El diario %s está dañado («%s»): no se usa, para no reenviar lo ya enviado. Restaure la última copia; no lo borre sin revisar antes en el ERP qué se registró",
			EN: "The journal %s is damaged («%s»): it is not used, so that nothing already sent is sent again. Restore the latest copy; do not delete it without first checking in the ERP what was recorded",
		},
		"jrn.behind": {
			ES: "El diario %s está atrasado: su última transacción es la %d, pero ya se había registrado la %d (¿una copia restaurada, o se perdió una página tras un corte?). Lo que falta se podría enviar dos veces. Restaure la copia más reciente; si sabe que esta es la correcta, acéptela con «nxbatch journal accept --journal %s»",
			EN: "The journal %s is behind: its last transaction is %d, but %d had already been recorded (a restored copy, or a page lost after a crash?). What is missing could be sent twice. Restore the latest copy; if you know this one is right, accept it with «nxbatch journal accept --journal %s»",
		},
		"jrn.otherjournal": {
			ES: "El archivo %s no es el diario que se usaba en este lugar (su identificador no coincide con el registro de al lado). Restaure el diario correcto; si quiere usar este, acéptelo con «nxbatch journal accept --journal %s»",
			EN: "The file %s is not the journal used here (its identity does not match the record beside it). Restore the right journal; to use this one, accept it with «nxbatch journal accept --journal %s»",
		},
		"jrn.badhwm": {
			ES: "El registro %s del diario no se puede leer: restáurelo, o bórrelo para que se vuelva a crear con el diario actual",
			EN: "The journal record %s cannot be read: restore it, or delete it so that it is made again from the current journal",
		},
		"jrn.oldformat": {
			ES: "El diario %s tiene el formato %d y esta versión de nxbatch lee el %d: no se usa para no leerlo mal. Empiece uno nuevo con --journal (conserve el anterior como constancia de lo enviado)",
			EN: "The journal %s has format %d and this nxbatch reads format %d: it is not used so that it is not misread. Start a new one with --journal (keep the old one as a record of what was sent)",
		},
		"jrn.newerformat": {
			ES: "El diario %s fue escrito por una versión más nueva de nxbatch (formato %d; esta lee el %d): actualice nxbatch",
			EN: "The journal %s was written by a newer nxbatch (format %d; this one reads %d): update nxbatch",
		},
		"jrn.tenants.header": {
			ES: "TENANT\tAPI\tENTORNO\tAPPID\tESTRUCTURA\tENTRADAS",
			EN: "TENANT\tAPI\tENVIRONMENT\tAPPID\tSTRUCTURE\tENTRIES",
		},
		"jrn.tenants.sandbox": {ES: "sandbox embebido (--sandbox)", EN: "embedded sandbox (--sandbox)"},
		"jrn.tenants.unbound": {
			ES: "sin identidad (diario de una versión anterior; vea --tenant)",
			EN: "no identity (a journal of an earlier version; see --tenant)",
		},
		"jrn.list.header": {
			ES: "CLAVE\tESTADO\tINTENTOS\tÚLTIMO\tFACTURAID\tNUMERO\tPVNUMERO\tORIGEN\tMENSAJE\tNOTA",
			EN: "KEY\tSTATE\tATTEMPTS\tLAST\tFACTURAID\tNUMERO\tPVNUMERO\tSOURCE\tMESSAGE\tNOTE",
		},
		"jrn.mkdir": {
			ES: "No se pudo crear la carpeta del diario %s: %s. Indique con --journal (o NXBATCH_JOURNAL) un archivo en una carpeta donde pueda escribir",
			EN: "The journal's folder for %s could not be made: %s. Give --journal (or NXBATCH_JOURNAL) a file in a folder you can write to",
		},
		"jrn.notthere": {
			ES: "no hay un diario en %s: revise --journal (o NXBATCH_JOURNAL); el diario lo crea la primera ejecución que envía",
			EN: "there is no journal at %s: check --journal (or NXBATCH_JOURNAL); the first run that sends creates it",
		},
		"cli.journal.scheme": {
			ES: "--journal empieza con %s, que no es un diario que nxbatch conozca: use un archivo o una URL postgres://",
			EN: "--journal starts with %s, which is not a journal nxbatch knows: use a file or a postgres:// URL",
		},
		"jrn.writefailed": {
			ES: "No se pudo escribir en el diario %s: %s. La ejecución se detiene para no enviar nada sin registrarlo: revise el disco (o el servidor PostgreSQL) y vuelva a ejecutar",
			EN: "The journal %s could not be written: %s. The run stops so that nothing is sent without a record: check the disk (or the PostgreSQL server) and run again",
		},
		"jrn.accept.open": {
			ES: "No se puede aceptar el diario %s: %s. Indique con --journal la ruta del diario que quiere usar como está",
			EN: "The journal %s cannot be accepted: %s. Give --journal the path of the journal to use as it is",
		},
		"jrn.accept.setaside": {
			ES: "No se pudo apartar el registro %s del diario: %s. Revise los permisos de su carpeta y vuelva a intentar",
			EN: "The journal record %s could not be set aside: %s. Check its folder's permissions and try again",
		},
		"src.rows":         {ES: "filas", EN: "rows"},
		"src.row":          {ES: "fila", EN: "row"},
		"jrn.notprocessed": {ES: "no procesada: %s", EN: "not processed: %s"},
		"jrn.resolved":     {ES: "%s: registrado como %s", EN: "%s: recorded as %s"},
		"jrn.resolve.failed": {
			ES: "no se pudo resolver %s: %s",
			EN: "could not resolve %s: %s",
		},
		"jrn.resolve.notfound": {
			ES: "esa clave no está en el diario; cópiela tal como la muestra «nxbatch journal list --status unknown»",
			EN: "that key is not in the journal; copy it as «nxbatch journal list --status unknown» shows it",
		},
		"jrn.resolve.notunknown": {
			ES: "solo se resuelven las entradas con resultado desconocido, y esta ya tiene uno",
			EN: "only entries whose outcome is unknown are resolved, and this one has one",
		},
		"jrn.accepted": {
			ES: "el diario %s se usa como está: lo que registró después de esta copia se da por no enviado",
			EN: "the journal %s is used as it is: what was recorded after this copy is taken as not sent",
		},
	})
}
