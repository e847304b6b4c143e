# yarnplay's tasks. POSIX make (GNU make 4.3 works). See README.md.
.POSIX:

GO = go
PORT = 8080
# The path the static site is served under: make dist BASE=/yarnplay/ for
# a GitHub Pages project site.
BASE = /
FILES =
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2

# Build the site into dist/ and serve it on 127.0.0.1:$(PORT).
run:
	$(GO) run ./build run -addr 127.0.0.1:$(PORT)

# Build the static site into dist/ (deploy dist/ to any static host).
dist:
	$(GO) run ./build wasm
	$(GO) run ./build static -base $(BASE)

# Everything CI runs, in order.
test:
	@echo '== gofmt -l'
	@files=$$(gofmt -l .); if [ -n "$$files" ]; then \
		echo "these files are not gofmt-formatted; run gofmt -w on them:"; echo "$$files"; exit 1; fi
	@echo '== go vet (native, then GOOS=js GOARCH=wasm)'
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./core/... ./wasm/... ./app/... ./protocol/...
	@echo '== staticcheck'
	$(GO) run $(STATICCHECK) ./...
	@echo '== go test (native; the browser tests run last)'
	$(GO) test -skip '^TestBrowser' ./...
	@echo '== go test under GOOS=js GOARCH=wasm with Node (jumps threaded as in app.wasm)'
	GOOS=js GOARCH=wasm $(GO) test -exec="$$(pwd)/build/go_js_wasm_exec" ./core/... ./wasm/... ./app/store/... ./protocol/... ./scenarios/scengen/...
	@echo '== browser tests (headless Chromium)'
	$(GO) test -count=1 -run '^TestBrowser' -v ./build/browsertest/

# Only the browser tests (they build app.wasm themselves).
browser-test:
	$(GO) test -count=1 -run '^TestBrowser' -v ./build/browsertest/

# staticcheck, pinned.
staticcheck:
	$(GO) run $(STATICCHECK) ./...

# Validate scenario files: make check FILES="a.yaml b.json"
check:
	@if [ -z "$(FILES)" ]; then echo 'usage: make check FILES="a.yaml b.json"'; exit 2; fi
	$(GO) run ./scenarios/cmd/yarnplay-check $(FILES)

# Remove build output (dist/, screenshots included).
clean:
	rm -rf dist

# Fuzz every decoder for FUZZTIME each, one after another (make test runs
# only their seed corpora in testdata/fuzz): make fuzz FUZZTIME=2m
FUZZTIME = 30s
FUZZ = $(GO) test -run '^$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
fuzz:
	$(FUZZ) -fuzz '^FuzzParseXML$$' ./core/config
	$(FUZZ) -fuzz '^FuzzParse$$' ./core/config
	$(FUZZ) -fuzz '^FuzzQueueTree$$' ./core/config
	$(FUZZ) -fuzz '^FuzzResourceString$$' ./core/config
	$(FUZZ) -fuzz '^FuzzACL$$' ./core/config
	$(FUZZ) -fuzz '^FuzzParse$$' ./scenarios
	$(FUZZ) -fuzz '^FuzzDecodeLink$$' ./scenarios
	$(FUZZ) -fuzz '^FuzzRun$$' ./scenarios
	$(FUZZ) -fuzz '^FuzzFastJSONIsTheStreamingReader$$' ./scenarios
	$(FUZZ) -fuzz '^FuzzYAMLErrorLine$$' ./scenarios
	$(FUZZ) -fuzz '^FuzzIDReaders$$' ./scenarios/snapshot
	$(FUZZ) -fuzz '^FuzzMarkdown$$' ./app
	$(FUZZ) -fuzz '^FuzzWithPercents$$' ./app
	$(FUZZ) -fuzz '^FuzzDecode$$' ./protocol
	$(FUZZ) -fuzz '^FuzzThread$$' ./build/wasmjump
	$(FUZZ) -fuzz '^FuzzMatchers$$' ./build/site/trim/yaml

.PHONY: run dist test browser-test staticcheck check clean fuzz

# Performance benchmarks (bench/): allocation throughput, scaling, idle
# heartbeats, WebAssembly under Node and Chromium, app.wasm's size and first
# render, the playground at scale, memory. About five minutes; prints each figure beside its target
# and writes dist/bench.json. See bench/README.md.
bench:
	$(GO) run ./bench/cmd/yarnplay-bench

.PHONY: bench
