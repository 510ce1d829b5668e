# SPDX-License-Identifier: GPL-2.0
#
# rue top-level build.
#
#   make            rue.ko for every installed kernel with headers (or KVER=),
#                   the rdma-core provider and the C++ tools
#   make install    install the module (depmod), provider, tools, man pages
#   make check      dependencies, build, host tests, guest tests on every
#                   test kernel; last line "N passed, N failed"
#   make demo       boot a guest, create rue0 over a veth pair, ibv_devinfo
#
# Variables: KVER (one kernel release), KROOT (the root that kernel is
# installed under, for the sanitizer kernel: scripts/san-kernel --root),
# DESTDIR, PREFIX, V=1.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build
PREFIX ?= /usr/local
KROOT ?=
DESTDIR ?=

RUE_VERSION := $(shell git -C $(TOP) describe --always --dirty 2>/dev/null || echo 0.1)
KVERS := $(if $(KVER),$(KVER),$(notdir $(patsubst %/build,%,$(wildcard /lib/modules/*/build))))
KSRC := $(shell find $(TOP)/kernel -name '*.[ch]') $(TOP)/kernel/Kbuild \
	$(wildcard $(TOP)/uapi/*/*.h)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Kbuild in parallel (make check builds the module for two kernels from
# scratch), unless make was given -j: its jobserver then shares the CPUs.
KJOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

.PHONY: all module userspace install install-module install-userspace \
	check demo clean deps help sparse-%

all: module userspace

help:
	@sed -n '3,13p' $(TOP)/Makefile | sed 's/^# \{0,1\}//'

deps:
	@$(TOP)/scripts/setup-deps --check >/dev/null || $(TOP)/scripts/setup-deps

# ---------------------------------------------------------------------
# Kernel module, one out-of-tree build directory per kernel: Kbuild has
# no separate object directory for external modules before 6.13, so each
# directory holds links to the sources, folder by folder.

module: $(foreach k,$(KVERS),$(BUILD)/kernel/$(k)/rue.ko $(BUILD)/kernel/$(k)/modroot.stamp)

$(BUILD)/kernel/%/rue.ko: $(KSRC)
	@mkdir -p $(@D)
	@cd $(TOP)/kernel && for f in Kbuild $$(find . -name '*.[ch]'); do \
		mkdir -p $(@D)/$$(dirname $$f) && ln -sf $(TOP)/kernel/$$f $(@D)/$$f; done
	@find $(@D) -path $(@D)/modroot -prune -o -xtype l -print | xargs -r rm -f
	$(MAKE) $(KJOBS) -C $(KROOT)/lib/modules/$*/build M=$(@D) W=1 \
		RUE_UAPI=$(TOP)/uapi RUE_VERSION=$(RUE_VERSION) \
		KCFLAGS="-Werror" modules

# A module tree for test guests: the kernel's own modules (linked) plus
# rue.ko, indexed by depmod here, because depmod inside a TCG guest takes
# most of a minute.  Guests copy the indexes and rue.ko into their overlay.
$(BUILD)/kernel/%/modroot.stamp: $(BUILD)/kernel/%/rue.ko
	@rm -rf $(@D)/modroot
	@mkdir -p $(@D)/modroot/lib/modules/$*/updates
	@ln -s $(KROOT)/lib/modules/$*/kernel $(@D)/modroot/lib/modules/$*/kernel
	@cp $(KROOT)/lib/modules/$*/modules.order $(KROOT)/lib/modules/$*/modules.builtin \
		$(@D)/modroot/lib/modules/$*/
	@cp $(KROOT)/lib/modules/$*/modules.builtin.modinfo $(@D)/modroot/lib/modules/$*/ 2>/dev/null || true
	@cp $< $(@D)/modroot/lib/modules/$*/updates/rue.ko
	depmod -b $(@D)/modroot $*
	@touch $@

# Static checking with sparse, same flags as the build (scripts/kcheck).
sparse-%: $(BUILD)/kernel/%/rue.ko
	$(MAKE) -C /lib/modules/$*/build M=$(BUILD)/kernel/$* W=1 C=2 \
		RUE_UAPI=$(TOP)/uapi RUE_VERSION=$(RUE_VERSION) \
		KCFLAGS="-Werror" modules

# ---------------------------------------------------------------------
# User space: provider (C) and tools (C++20), one CMake tree.

userspace: $(BUILD)/userspace/CMakeCache.txt
	cmake --build $(BUILD)/userspace -j $(JOBS)

$(BUILD)/userspace/CMakeCache.txt: $(TOP)/userspace/CMakeLists.txt
	cmake -S $(TOP)/userspace -B $(BUILD)/userspace \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) \
		-DRUE_VERSION=$(RUE_VERSION)

# ---------------------------------------------------------------------

install: install-module install-userspace

install-module: module
	@for k in $(KVERS); do \
		install -D -m 644 $(BUILD)/kernel/$$k/rue.ko \
			$(DESTDIR)/lib/modules/$$k/updates/rue.ko && \
		{ [ -n "$(DESTDIR)" ] || depmod -a $$k; }; done

install-userspace: userspace
	DESTDIR=$(DESTDIR) cmake --install $(BUILD)/userspace

# make check's summary says how long dependencies and the build took
check: export RUE_CHECK_START := $(shell date +%s)
check: deps all
	@$(TOP)/scripts/check

demo: deps all
	@$(TOP)/scripts/demo

clean:
	rm -rf $(BUILD)/kernel $(BUILD)/userspace
