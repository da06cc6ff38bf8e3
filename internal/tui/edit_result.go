package tui

// editResult is what a key did to a view the listener fills in and then
// submits or leaves: the new-session form, the model switch.
type editResult int

const (
	editing    editResult = iota // still at it
	editSubmit                   // Enter: go on with what it holds
	editBack                     // Esc: leave it
)
