package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/human"
)

// renderProgress shows how far a render has come, on standard error: on a
// terminal a bar drawn over itself, to a pipe or a file a line at each
// tenth. A render with a slow voice takes half a minute or more; it is
// never silent that long.
type renderProgress struct {
	w      io.Writer
	tty    bool
	width  int
	total  time.Duration        // the file's length: the session, and a sleep session's sound after it
	played func() time.Duration // how much of it is written
	stop   chan struct{}
	once   sync.Once
	done   sync.WaitGroup
	shown  int // the last percentage shown
}

// Progress's pace: a bar a few times a second, a line's check as often.
const (
	barEvery  = 200 * time.Millisecond
	lineEvery = 250 * time.Millisecond
)

// showProgress starts showing the render's progress on w until end.
func showProgress(w io.Writer, total time.Duration, played func() time.Duration) *renderProgress {
	f, ok := w.(*os.File)
	p := &renderProgress{w: w, tty: ok && isTerminal(f), total: total, played: played, stop: make(chan struct{}), shown: -1}
	p.width = min(columns(w), 80)
	if p.width <= 0 {
		p.width = 80
	}
	every := lineEvery
	if p.tty {
		every = barEvery
	}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			p.show(false)
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

// halt stops following the render, before its output is closed.
func (p *renderProgress) halt() {
	p.once.Do(func() { close(p.stop) })
	p.done.Wait()
}

// end stops showing progress: whole says the render completed, and 100 %
// is shown; otherwise the bar is left where it stopped, its line ended.
func (p *renderProgress) end(whole bool) {
	p.halt()
	if whole {
		p.show(true)
	}
	if p.tty {
		fmt.Fprintln(p.w)
	}
}

// percent is how much of the file is written, to the percent; 100 only
// once it is whole.
func (p *renderProgress) percent(whole bool) int {
	if whole {
		return 100
	}
	if p.total <= 0 {
		return 0
	}
	return min(int(100*p.played()/p.total), 99)
}

func (p *renderProgress) show(whole bool) {
	pct := p.percent(whole)
	if !p.tty {
		// A line at each tenth, and at the end.
		if step := pct / 10 * 10; step > p.shown && (step > 0 || p.shown < 0) {
			p.shown = step
			fmt.Fprintf(p.w, "Rendering: %d%%\n", step)
		}
		return
	}
	if pct == p.shown {
		return
	}
	p.shown = pct
	written := min(p.total*time.Duration(pct)/100, p.total)
	if !whole {
		written = min(p.played(), p.total)
	}
	fmt.Fprint(p.w, "\r"+p.bar(pct, written))
}

// bar is the progress line fitted to the terminal's width, never into its
// last column (a terminal wraps there, and "\r" would then redraw only
// the wrapped part): the bar and the times when there is room, the times
// left out before the bar shrinks past ten cells, then the label; at the
// narrowest, the percentage alone.
func (p *renderProgress) bar(pct int, written time.Duration) string {
	percent := fmt.Sprintf(" %3d%%", pct)
	for _, f := range []struct {
		label, tail string
		least       int
	}{
		{"Rendering ", percent + "  " + human.Clock(written) + " of " + human.Clock(p.total), 10},
		{"Rendering ", percent, 10},
		{"", percent, 5},
	} {
		cells := p.width - len(f.label) - len("[]") - utf8.RuneCountInString(f.tail) - 1
		if cells < f.least {
			continue
		}
		full := cells * pct / 100
		return f.label + "[" + strings.Repeat("█", full) + strings.Repeat("░", cells-full) + "]" + f.tail
	}
	return strings.TrimSpace(percent)
}
