# lull — two commands: `make run` and `make test`.
GO      ?= go
BIN     ?= lull
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

# make install puts lull in $(PREFIX)/bin: ~/.local/bin for a user,
# /usr/local/bin for root.
ifeq ($(shell id -u 2>/dev/null),0)
PREFIX  ?= /usr/local
else
PREFIX  ?= $(HOME)/.local
endif
BINDIR  ?= $(PREFIX)/bin

.PHONY: run test bench build install uninstall cross release-snapshot deps test-deps bench-deps vet fuzz clean

## run: install what is missing, build, say where lull is, and start it
run: deps build
	@scripts/where-is-lull $(BIN) $(BINDIR)
	./$(BIN)

## build: compile ./lull. Pure Go (CGO_ENABLED=0), as the releases are:
## the sound output speaks PulseAudio itself and loads ALSA at run time,
## so no C compiler or headers are needed.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/lull

## install: build and copy lull to $(BINDIR) (PREFIX=/opt/lull make
## install for another place)
install: build
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/lull
	@scripts/where-is-lull $(DESTDIR)$(BINDIR)/lull $(BINDIR)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lull

## cross: CGO_ENABLED=0 builds for linux, darwin, windows and freebsd on
## amd64 and arm64, into dist/cross/
cross:
	@GO=$(GO) VERSION=$(VERSION) scripts/cross

## release-snapshot: every release archive, deb, rpm and the checksums,
## built locally into dist/ by goreleaser (installed with go install when
## missing), without publishing anything
GORELEASER ?= $(shell command -v goreleaser 2>/dev/null || echo $$($(GO) env GOPATH)/bin/goreleaser)
release-snapshot:
	@[ -x "$(GORELEASER)" ] || $(GO) install github.com/goreleaser/goreleaser/v2@v2.16.0
	$(GORELEASER) release --snapshot --clean

## test: install what the tests need, then run everything with the race
## detector, then fuzz the session loader and the speech cleaner briefly
## (longer by hand: make fuzz).
## -fuzzminimizetime 1x: minimizing every new input would take the whole run.
## The brief runs count inputs (about ten seconds each here), not seconds:
## a -fuzztime in seconds fails now and then with "context deadline
## exceeded" on a busy machine, Go's own race at the deadline (go.dev/issue/75804,
## fixed in Go 1.27), with nothing found.
## The tests that count the words of whole sessions by the hundred (the
## built-in guide's, and the held-out harm woven into live sessions: one
## clock's arithmetic and a screen's, not goroutines meeting) take minutes
## under the race detector: they run without it, beside the rest (the
## engine, the guide and the screen run whole sessions under it in app's
## other tests). So do the guide's four sweeps of every line of its
## material (safe and whole, another opening, sleep never wakes, the
## speech cleaner keeps it): one goroutine reading, a fifth of the race
## lane's guide time.
## The end-to-end tests (./e2e) drive the real binary, built without the
## race detector: under -race only their own driver was checked, for a
## sixth more of their CPU, so they run without it, beside the rest too.
## Most of their time is spent waiting on a terminal or a clock, so four
## run at once, not two (alone here: 238 s at two, 177 s at four).
## The cross check (scripts/cross --check: lull and its tests
## type-checked for darwin/arm64 and windows/amd64) follows the race
## detector's tests in their lane, and the two brief fuzz runs follow the
## tests that count words, beside the end-to-end tests' waiting: each lane
## ends within a minute of the others, and nothing runs alone at the end
## while a core stands idle.
## Compiling is half the work on a fresh machine (a fifth where Go has
## compiled the dependencies before), so nothing is
## compiled twice that need not be: everything but the race detector's
## lane builds as the releases do ($(PURE): no cgo, -trimpath), so vet,
## the end-to-end tests' lull, the word-counting tests and the fuzzers
## share one build of each package; the full vet of every package runs
## in the same make test, so the tests skip go test's own vet pass
## (-vet=off); the test binaries are linked without DWARF tables
## (-ldflags=-w: stack traces and race reports need only the symbol table).
WORDS := ^(TestListeningFindsNothingWrong|TestFiveWeeksStayFresh|TestBuiltinSessionsKeepTheirShape|TestWholeSessionsThroughTheEngine|TestTheIntentionIsHeardInEveryPhase|TestNoStockPhrases|TestHeldOutHarmInWholeSessions|TestEveryLineCanOpenOtherwise|TestEveryLineIsSafeAndWhole|TestSleepMaterialNeverWakes|TestSpeechKeepsEveryBuiltinLine)$$
PURE  := CGO_ENABLED=0
TFLAGS := -count=1 -timeout 15m -vet=off -ldflags=-w
## The session files' fault tests (the kill test: a thousand saving
## processes started and killed; power cuts at every step; torn
## transcripts; damaged files; the encoder at random) run in one
## goroutine, and the sessions package starts none: the race detector
## checks nothing there but costs them three times the CPU, and the kill
## test, begun late in the race lane, was the last thing running. They run
## without it, beside the words (the package's tests that start
## goroutines stay in the race lane).
ALONE := ^(TestKillWhileSaving|TestPowerCutAtEveryStep|TestTornTranscriptIsCut|TestEncoderIsEncodeAtRandom|TestHostileFiles)$$
## The race detector's lane shares no build with vet (its packages are
## built with -race), so it begins at once, beside vet; the other lanes
## wait for vet, whose build they share. Its longest packages go first
## (the rest in go list's order): a package begun last, when the other
## lanes had ended, kept the suite waiting for a minute with one core idle.
## Four run at once (-p 4): at two, on a busy machine, app and audio took
## the two slots for four minutes each and the lane ended last, minutes
## after the others.
RACEFIRST := ./internal/app ./internal/audio ./internal/tui ./internal/guide ./internal/safety ./internal/llm
test: test-deps
	{ $(GO) test -race $(TFLAGS) -p 4 -skip '$(WORDS)|$(ALONE)' $$($(GO) list $(RACEFIRST) ./... | grep -v '/e2e$$'); race=$$?; \
	  GO=$(GO) scripts/cross --check; exit $$((race | $$?)); } & race=$$!; \
	( $(VET) ) || { wait $$race; exit 1; }; \
	$(PURE) $(GO) test -trimpath $(TFLAGS) -parallel 4 ./e2e & e2e=$$!; \
	$(PURE) $(GO) test -trimpath $(TFLAGS) -run '$(WORDS)|$(ALONE)' ./internal/guide ./internal/app ./internal/sessions; words=$$?; \
	$(PURE) $(GO) test -trimpath -vet=off -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime 60000x -fuzzminimizetime 1x ./internal/sessions; load=$$?; \
	$(PURE) $(GO) test -trimpath -vet=off -run '^$$' -fuzz '^FuzzSpeech$$' -fuzztime 25000x -fuzzminimizetime 1x ./internal/speech; speech=$$?; \
	wait $$race; race=$$?; wait $$e2e; e2e=$$?; \
	exit $$((words | load | speech | race | e2e))

## fuzz: the session loader and the speech cleaner for ten minutes each
## (FUZZTIME=1h for longer)
FUZZTIME ?= 10m
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 1x ./internal/sessions
	$(GO) test -run '^$$' -fuzz '^FuzzSpeech$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 1x ./internal/speech

## bench: the speed and cost figures, each beside its anchor measured in
## the same run, then a table of figure, anchor, ratio and target: render
## speed beside the voice engine and sox, a playing session beside mpv (CPU
## with the sound server's share, paused, peak memory), saves beside a bare
## write, the TUI's own cost, lull's time to an LLM's first sentence, the
## safety screen's time per sentence
bench: bench-deps
	@GO=$(GO) scripts/bench

## vet: go vet and the gofmt check (make test runs them inline, not as a
## sub-make, so that make -n test only prints)
VET = $(PURE) $(GO) vet -trimpath ./... && \
	unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')) && \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
vet:
	$(VET)

deps:
	@scripts/deps run

test-deps:
	@scripts/deps test

bench-deps:
	@scripts/deps bench

clean:
	rm -rf $(BIN) dist
