# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# zex: an emulated multi-tile GPU (zex.ko) and libzex.
#
#   make            build zex.ko (for KDIR, or the newest installed kernel of
#                   line KVER=6.1|6.12), libzex, the selftests, tools
#   make run        boot the stock-kernel VM with zex loaded and run zex-info
#   make check      every test layer (host, stock-kernel VM, debug-kernel VM)
#   make vm         an interactive shell in the VM with zex loaded
#   make bench      benchmarks in the VM, against floors measured in the same run
#   make stress     long runs: hostrpc at the seed's scale, the full-size models
#   make fuzz       libzex's fuzz targets, 10^6 inputs each; the kernel fuzzer,
#                   10^6 calls on the debug kernel with fault injection
#   make lint       checkpatch --strict and sparse on the kernel code
#   make gpu-check  hostrpc's device half on this machine's CUDA GPU (nvcc),
#                   every call verified; not part of make check (no GPU in CI)
#   make gpu-bench  the same against its floors, one table
#   make dkms-install   install the module through DKMS
#   make install        install libzex (PREFIX=/usr/local, DESTDIR, LIBDIR)
#
# `make run` and `make check` install what they need first (Debian 12, root).

# The kernel zex.ko is built for and the VM targets boot: KDIR when set,
# else the newest installed release of line KVER (6.1 or 6.12), else of the
# newest line installed. Resolved by tools/kernel-dir.sh when a recipe runs,
# never when this file is read: on a fresh machine the headers arrive with
# the deps step, after that.
export KDIR
export KVER
export ZEX_MODULES_ROOT
KDIR_NOW = $${KDIR:-$$(tools/kernel-dir.sh $$KVER)}
O ?= $(CURDIR)/build
export ZEX_CACHE_DIR ?= $(HOME)/.cache/zex
# Module parameters for the VM targets, e.g. make run ZEX_PARAMS="tiles=4".
export ZEX_PARAMS
KSFT_DIR = $(shell tools/vm/linux-source.sh)/tools/testing/selftests
VERSION := 0.1.0

all: kmod libzex selftests tools

kmod:
	@kdir="$(KDIR_NOW)"; \
	test -n "$$kdir" || { echo "no kernel build dir: apt-get install linux-headers-amd64, or set KDIR" >&2; exit 1; }; \
	echo "zex.ko for $$kdir"; \
	$(MAKE) -C "$$kdir" M=$(CURDIR)/kmod O= W=1 modules

libzex:
	$(MAKE) -C libzex O=$(O)

# The kselftests the kernel's way: zex put into a hard-linked copy of
# linux-source-6.1, built and installed by its tools/testing/selftests.
selftests: libzex
	@tools/kselftest-install.sh $(O)

tools: libzex
	@mkdir -p $(O)/bin
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 \
		-Ilibzex/include -Iuapi $$(pkg-config --cflags libdrm) \
		tools/zex-info/zex-info.c tools/zex-info/zex-info-loader.c \
		tools/zex-info/zex-info-top.c \
		$(O)/lib/libzex.a -ldrm -o $(O)/bin/zex-info
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 \
		-Ilibzex/include -Iuapi \
		tools/bench/zex-bench-l0.c -lze_loader -o $(O)/bin/zex-bench-l0
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static \
		-Iuapi -Itestlib $$(pkg-config --cflags libdrm) \
		tools/bench/zex-bench-ipc.c -ldrm -o $(O)/bin/zex-bench-ipc
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static \
		-Iuapi -Itestlib $$(pkg-config --cflags libdrm) \
		tools/bench/zex-bench-userptr.c -ldrm -o $(O)/bin/zex-bench-userptr
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static -pthread \
		-Iuapi -Itestlib $$(pkg-config --cflags libdrm) \
		tools/bench/zex-bench-exec.c -ldrm -o $(O)/bin/zex-bench-exec
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static -pthread \
		-Ilibzex/include -Iuapi $$(pkg-config --cflags libdrm) \
		tools/bench/zex-bench-hostrpc.c $(O)/lib/libzex.a -ldrm -o $(O)/bin/zex-bench-hostrpc
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static -pthread \
		-Ilibzex/include -Iuapi $$(pkg-config --cflags libdrm) \
		tools/bench/zex-bench-l0-exec.c $(O)/lib/libzex.a -ldrm -o $(O)/bin/zex-bench-l0-exec
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -pthread \
		-Ilibzex/include -Iuapi $$(pkg-config --cflags libdrm) \
		tools/bench/zex-bench-kernel.c $(O)/lib/libzex.a -ldrm -lOpenCL -o $(O)/bin/zex-bench-kernel
	clang-15 -c -target spir64 -cl-std=CL2.0 -O2 -emit-llvm -Xclang -finclude-default-header \
		tools/bench/zex_bench_kernels.cl -o $(O)/zex_bench_kernels.bc
	llvm-spirv-15 $(O)/zex_bench_kernels.bc -o $(O)/bin/zex_bench_kernels.spv

host-tests:
	$(MAKE) -C libzex O=$(O) KSFT_DIR=$(KSFT_DIR) tests

# What installs the packages (a stand-in in tools/check/fresh-kdir.sh).
DEPS ?= tools/check/deps.sh

deps:
	@$(DEPS)

# The kernel build directory the targets use now (after the deps step).
kdir: deps
	@echo "$(KDIR_NOW)"

check: deps
	@KDIR="$(KDIR_NOW)" O=$(O) tools/check/check.sh

run: deps all
	@KDIR="$(KDIR_NOW)" O=$(O) tools/vm/vm.sh run

vm: deps all
	@KDIR="$(KDIR_NOW)" O=$(O) tools/vm/vm.sh shell

bench: deps all host-tests
	@KDIR="$(KDIR_NOW)" O=$(O) tools/vm/vm.sh bench
	@echo "hostrpc natively (threads over plain memory, this machine's cores):"
	@$(O)/host-tests/hostrpc_scale bench

stress: deps all host-tests
	@KDIR="$(KDIR_NOW)" O=$(O) tools/check/stress.sh

fuzz: deps all
	$(MAKE) -s -C libzex O=$(O) fuzz-run FUZZ_RUNS=1000000
	@KDIR="$(KDIR_NOW)" O=$(O) tools/vm/vm.sh fuzz

lint:
	@tools/check/lint.sh

# Without nvcc or a GPU: a skip (exit 4).
gpu-check gpu-bench:
	@$(MAKE) -s -C libzex/hostrpc/cuda O=$(O) $(@:gpu-%=%)

install uninstall:
	$(MAKE) -C libzex O=$(O) $@

dkms-install:
	@tools/dkms.sh install $(VERSION)

dkms-uninstall:
	@tools/dkms.sh uninstall $(VERSION)

clean:
	-kdir="$(KDIR_NOW)"; [ -z "$$kdir" ] || $(MAKE) -C "$$kdir" M=$(CURDIR)/kmod O= clean
	rm -rf $(O)

.PHONY: all kmod libzex selftests tools host-tests deps kdir check run vm bench stress fuzz lint \
	gpu-check gpu-bench \
	install uninstall \
	dkms-install dkms-uninstall clean
