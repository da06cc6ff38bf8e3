# lull — two commands: `make run` and `make test`.
GO      ?= go
BIN     ?= lull
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: run test bench build deps test-deps bench-deps vet fuzz clean

## run: install what is missing, build, and start lull
run: deps build
	./$(BIN)

## build: compile ./lull (needs the ALSA headers: make deps)
build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/lull

## test: install what the tests need, then run everything with the race
## detector, then fuzz the session loader and the speech cleaner briefly
## (longer by hand: make fuzz).
## -fuzzminimizetime 1x: minimizing every new input would take the whole run.
## The brief runs count inputs (about ten seconds each here), not seconds:
## a -fuzztime in seconds fails now and then with "context deadline
## exceeded" on a busy machine, Go's own race at the deadline (go.dev/issue/75804,
## fixed in Go 1.27), with nothing found.
## The two brief fuzz runs go side by side. The built-in guide's tests of
## whole sessions (hundreds of them, arithmetic on one clock) take minutes
## under the race detector: they run without it, beside the rest (the
## engine and the guide run whole sessions under it in app's tests).
## The end-to-end tests (./e2e) drive the real binary, built without the
## race detector: under -race only their own driver was checked, for a
## sixth more of their CPU, so they run without it, beside the rest too.
HEARD := ^(TestListeningFindsNothingWrong|TestFiveWeeksStayFresh|TestBuiltinSessionsKeepTheirShape|TestWholeSessionsThroughTheEngine)$$
test: test-deps vet
	$(GO) test -race -count=1 -timeout 15m -skip '$(HEARD)' $$($(GO) list ./... | grep -v '/e2e$$') & race=$$!; \
	$(GO) test -count=1 -timeout 15m ./e2e & e2e=$$!; \
	$(GO) test -count=1 -timeout 15m -run '$(HEARD)' ./internal/guide; heard=$$?; \
	wait $$race; race=$$?; wait $$e2e; e2e=$$?; \
	[ $$race -eq 0 ] && [ $$e2e -eq 0 ] && exit $$heard; exit 1
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime 60000x -fuzzminimizetime 1x ./internal/sessions & load=$$!; \
	$(GO) test -run '^$$' -fuzz '^FuzzSpeech$$' -fuzztime 25000x -fuzzminimizetime 1x ./internal/speech; speech=$$?; \
	wait $$load && exit $$speech

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

vet:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi

deps:
	@scripts/deps run

test-deps:
	@scripts/deps test

bench-deps:
	@scripts/deps bench

clean:
	rm -f $(BIN)
