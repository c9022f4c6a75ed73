// Package lsbevents reads an LSF lsb.events file: the event log LSF's
// mbatchd writes, one record per line, as IBM's lsb.events file-format
// page documents it. What goes in is the file's text; what comes out is
// each job's history (api.JobHistory, as bhist shows it) and what the
// job was submitted with and how long it ran (Job, as simulate replays
// it).
//
// A record is a line of blank-separated fields: its type, the version of
// LSF that wrote it, the time of the event, then the fields of its type.
// A string is in double quotes, a quote inside doubled. The job records
// read are JOB_NEW, JOB_START, JOB_START_ACCEPT, JOB_EXECUTE, JOB_STATUS,
// JOB_SWITCH, JOB_MOVE, JOB_SIGNAL, JOB_MODIFY2, JOB_FORWARD, JOB_ACCEPT,
// JOB_ACCEPTACK, JOB_FORCE, JOB_REQUEUE, MIG and JOB_CLEAN; the records
// of the cluster's own life (MBD_START, QUEUE_CTRL, LOAD_INDEX, ...) are
// passed over; a record of a type not known is counted and skipped. A
// malformed record (a quote left open, a field missing or not a number)
// is reported with its file and line and skipped: reading never stops
// at a bad line. Lines starting with "#" (the file's header) and blank
// lines are passed over.
//
// The package imports only the standard library and runtime/api, so
// that the client commands that use it stay light.
package lsbevents
