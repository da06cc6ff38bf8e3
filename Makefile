# lull — two commands: `make run` and `make test`.
GO      ?= go
BIN     ?= lull
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: run test bench build deps test-deps vet fuzz clean

## run: install what is missing, build, and start lull
run: deps build
	./$(BIN)

## build: compile ./lull (needs the ALSA headers: make deps)
build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) .

## test: install what the tests need, then run everything with the race
## detector, then fuzz the session loader and the speech cleaner briefly
## (longer by hand: make fuzz).
## -fuzzminimizetime 1x: minimizing every new input would take the whole run
test: test-deps vet
	$(GO) test -race -count=1 -timeout 15m ./...
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime 10s -fuzzminimizetime 1x ./sessions
	$(GO) test -run '^$$' -fuzz '^FuzzSpeech$$' -fuzztime 10s -fuzzminimizetime 1x ./engine

## fuzz: the session loader and the speech cleaner for ten minutes each
## (FUZZTIME=1h for longer)
FUZZTIME ?= 10m
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 1x ./sessions
	$(GO) test -run '^$$' -fuzz '^FuzzSpeech$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 1x ./engine

## bench: the speed and cost figures — render speed, the mixer's CPU per
## second of audio, a playing session's CPU and memory, the session store,
## lull's own time on the way to the first sentence from an LLM, the safety
## screen's time per sentence beside the keyword list it replaced
bench: test-deps
	$(GO) test -run '^$$' -bench . -benchtime 1x . ./app
	$(GO) test -run '^$$' -bench . ./audio ./sessions
	$(GO) test -run '^$$' -bench . -benchtime 20x ./llm
	$(GO) test -run '^$$' -bench SafetyCheck -benchmem ./engine

vet:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi

deps:
	@scripts/deps run

test-deps:
	@scripts/deps test

clean:
	rm -f $(BIN)
