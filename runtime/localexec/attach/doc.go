// Package attach carries the terminal of an interactive job (bsub -I,
// -Ip, -Is) between the submitting bsub and the job's wrapper: frames of
// standard input, output and error, window sizes, signals and the job's
// exit status go over one TCP connection, which the wrapper opens to the
// address bsub listens on, once both sides have proved that they hold the
// job's token.
//
// # The connection
//
// bsub listens on a port of its host and sends the addresses it can be
// reached at, and a random token of its own, with the submission; the
// daemon gives both to the job's wrapper, which connects back when the
// job starts, wherever it runs. Each side then sends a random challenge
// (Nonce bytes) and answers the other's with an HMAC-SHA256 keyed with
// the token: the wrapper first, so that it tells nothing of the job to a
// listener that cannot answer, then bsub. A side whose answer is wrong is
// dropped. Everything after the handshake goes sealed (Stream): AES-256-GCM
// under a key for each direction derived from the token and both
// challenges, each record numbered.
//
// # Frames
//
// Within the sealed stream, every message is a frame: one byte of kind, a
// four-byte big-endian length, and that many bytes of payload (at most
// MaxPayload). ReadFrame reads one, refusing an unknown kind, an
// oversized length and a payload whose size does not fit its kind.
//
// # Terminals
//
// OpenPty opens a pseudo-terminal pair; MakeRaw, Restore, GetWinsize and
// SetWinsize drive a terminal's modes and window size, with the system
// calls of the standard library alone, so that the small job starter
// links nothing more.
package attach
