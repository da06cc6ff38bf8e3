package sessions

import (
	"fmt"
	"io/fs"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows a file's mode says nothing of who may write it (it is 0666,
// or 0444 when read-only, for every file): its owner and its access list
// do. lull trusts what is owned by the user (or by the Administrators
// group, the owner of what an elevated user makes) and what the access
// list lets nobody else write, but the system itself and the
// administrators, who can take any file anyway: the two that every folder
// in a user's profile grants full control to.

func (e *UntrustedError) Error() string {
	if e.OwnerName != "" {
		return fmt.Sprintf("it belongs to %s, not to you (%s): lull will not trust it; if it is yours, take it back with: icacls \"%s\" /setowner \"%s\"",
			e.OwnerName, e.UserName, e.Path, e.UserName)
	}
	return fmt.Sprintf("it is writable by %s: lull will not trust it; fix with: icacls \"%s\" /inheritance:d /remove:g \"%s\"",
		e.Writer, e.Path, e.Writer)
}

// writeAccess is every right that changes a file or a folder's content,
// or who may: writing and appending (adding files and folders, in a
// folder), deleting its children or itself, and rewriting its access
// list or owner.
const writeAccess = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | fileDeleteChild |
	windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_WRITE | windows.GENERIC_ALL

// fileDeleteChild is FILE_DELETE_CHILD (winnt.h), which x/sys/windows
// does not name.
const fileDeleteChild = 0x40

// accounts are the user lull runs as and the accounts trusted beside it.
var accounts = sync.OnceValues(func() (accountSIDs, error) {
	var a accountSIDs
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return a, fmt.Errorf("who runs lull: %w", err)
	}
	if a.user, err = tu.User.Sid.Copy(); err != nil {
		return a, err
	}
	if a.system, err = windows.CreateWellKnownSid(windows.WinLocalSystemSid); err != nil {
		return a, err
	}
	a.admins, err = windows.CreateWellKnownSid(windows.WinBuiltinAdministratorsSid)
	return a, err
})

type accountSIDs struct{ user, system, admins *windows.SID }

// trust refuses the file or folder at path when someone other than the
// user could write it. info is not read: the security descriptor is.
func trust(_ fs.FileInfo, path string) error {
	a, err := accounts()
	if err != nil {
		return err
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("reading who may write it: %w", err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("reading its owner: %w", err)
	}
	if !owner.Equals(a.user) && !owner.Equals(a.admins) {
		return &UntrustedError{Path: path, OwnerName: accountName(owner), UserName: accountName(a.user)}
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		// No access list at all lets everyone do anything.
		return &UntrustedError{Path: path, Writer: "Everyone", UserName: accountName(a.user)}
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return fmt.Errorf("reading who may write it: %w", err)
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0 ||
			ace.Mask&writeAccess == 0 {
			continue
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if sid.Equals(a.user) || sid.Equals(a.system) || sid.Equals(a.admins) {
			continue
		}
		return &UntrustedError{Path: path, Writer: accountName(sid), UserName: accountName(a.user)}
	}
	return nil
}

// accountName is DOMAIN\name, or the SID where no name is found.
func accountName(sid *windows.SID) string {
	account, domain, _, err := sid.LookupAccount("")
	switch {
	case err != nil:
		return sid.String()
	case domain == "":
		return account
	}
	return domain + `\` + account
}
