package localexec

import (
	"fmt"
	"os"
	"os/user"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// A jobUser is whom a job runs as.
type jobUser struct {
	// other is true when the job runs as another user than the wrapper's:
	// the wrapper runs as root and the job's UID is not 0.
	other    bool
	uid, gid int
	groups   []uint32 // supplementary groups, when other
	home     string   // "" when unknown
	// shared is set in the supervisor, where do's thread takes the
	// job's umask and working directory (cwd, once known) of its own.
	shared bool
	umask  int
	cwd    string
}

// jobUserOf returns whom the job of s runs as, seen from a wrapper whose
// effective user id is euid.
func jobUserOf(s *Spec, euid int) jobUser {
	if euid != 0 || s.UID == 0 {
		u := jobUser{uid: os.Getuid(), gid: os.Getgid()}
		if pw, err := user.LookupId(strconv.Itoa(u.uid)); err == nil {
			u.home = pw.HomeDir
		}
		return u
	}
	u := jobUser{other: true, uid: s.UID, gid: s.GID}
	pw, err := user.LookupId(strconv.Itoa(s.UID))
	if err != nil {
		return u
	}
	u.home = pw.HomeDir
	ids, _ := pw.GroupIds()
	for _, id := range ids {
		if g, err := strconv.ParseUint(id, 10, 32); err == nil {
			u.groups = append(u.groups, uint32(g))
		}
	}
	return u
}

// credential is the process credential that starts the job as u; nil when
// the job runs as the wrapper's user.
func (u jobUser) credential() *syscall.Credential {
	if !u.other {
		return nil
	}
	groups := u.groups
	if groups == nil {
		groups = []uint32{}
	}
	return &syscall.Credential{Uid: uint32(u.uid), Gid: uint32(u.gid), Groups: groups}
}

// do runs f with the file-system identity of u, so that the kernel checks
// the files f opens (and the directory it enters) as u's and the files it
// creates belong to u. When u is the wrapper's own user it just calls f.
// Otherwise f runs on an OS thread of its own whose file-system user,
// group and supplementary groups are switched (they are per-thread
// attributes), and switched back afterwards; should switching back fail,
// the thread is never reused.
func (u jobUser) do(f func() error) error {
	if !u.other {
		return f()
	}
	errc := make(chan error, 1)
	go func() {
		// A fault leaves the thread locked, so that it is never reused.
		defer survive(0, "a step as the job's user", func(err error) { errc <- err })
		runtime.LockOSThread()
		if u.shared {
			// The thread keeps a working directory and umask of its
			// own, and so is never reused (it is never unlocked).
			if err := ownThread(u.umask); err != nil {
				errc <- err
				return
			}
			if u.cwd != "" {
				os.Chdir(u.cwd)
			}
		}
		restored, err := u.doLocked(f)
		if restored && !u.shared {
			runtime.UnlockOSThread()
		}
		errc <- err
	}()
	return <-errc
}

// doLocked is do on a locked thread. It reports whether the thread got
// its own identity back.
func (u jobUser) doLocked(f func() error) (restored bool, err error) {
	saved, err := syscall.Getgroups()
	if err != nil {
		return true, err
	}
	if err := threadSetgroups(u.groups); err != nil {
		return true, fmt.Errorf("cannot take the groups of user %d: %v", u.uid, err)
	}
	oldGID := threadSetfsid(syscall.SYS_SETFSGID, u.gid)
	oldUID := threadSetfsid(syscall.SYS_SETFSUID, u.uid)
	if threadSetfsid(syscall.SYS_SETFSUID, -1) != u.uid || threadSetfsid(syscall.SYS_SETFSGID, -1) != u.gid {
		err = fmt.Errorf("cannot take the identity of user %d", u.uid)
	} else {
		err = f()
	}
	threadSetfsid(syscall.SYS_SETFSUID, oldUID)
	threadSetfsid(syscall.SYS_SETFSGID, oldGID)
	ok := threadSetfsid(syscall.SYS_SETFSUID, -1) == oldUID && threadSetfsid(syscall.SYS_SETFSGID, -1) == oldGID
	gids := make([]uint32, len(saved))
	for i, g := range saved {
		gids[i] = uint32(g)
	}
	return ok && threadSetgroups(gids) == nil, err
}

// threadSetfsid calls setfsuid or setfsgid (trap) on this thread only and
// returns the previous id; an id of -1 changes nothing, which reads it.
func threadSetfsid(trap uintptr, id int) int {
	old, _, _ := syscall.RawSyscall(trap, uintptr(id), 0, 0)
	return int(old)
}

// threadSetgroups sets the supplementary groups of this thread only.
func threadSetgroups(groups []uint32) error {
	var p unsafe.Pointer
	if len(groups) > 0 {
		p = unsafe.Pointer(&groups[0])
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETGROUPS, uintptr(len(groups)), uintptr(p), 0); e != 0 {
		return e
	}
	return nil
}
