# Install, uninstall, and a test of both into a staging directory.
#   make install     PREFIX=/usr/local DESTDIR=
#   make uninstall   the same files removed
#   make test-install  install and uninstall under a temporary DESTDIR (tests/install/)
#
# `.load tracesql` by name: SQLite dlopen()s "tracesql.so", which the dynamic loader
# finds through its cache. The library is installed as $(LIBDIR)/libtracesql.so.VERSION
# with the soname tracesql.so, plus the link tracesql.so; ldconfig (run here as root
# when DESTDIR is empty) records it, since $(PREFIX)/lib = /usr/local/lib is a
# directory of Debian's /etc/ld.so.conf.d/libc.conf. Another PREFIX must be such a
# directory too, or users load it by path (docs/install.md).
LIBDIR ?= $(PREFIX)/lib
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/tracesql
DOCDIR ?= $(PREFIX)/share/doc/tracesql
LDCONFIG ?= ldconfig
INSTALL_SO := libtracesql.so.$(VERSION)
# every report command of tools/ (tracesql-*), their library (tools/lib/, found by the
# commands in DATADIR/lib, so DATADIR stays PREFIX/share/tracesql) and the HTML page's SQL
INSTALL_BIN := $(notdir $(sort $(wildcard tools/tracesql-*)))
INSTALL_LIB := $(sort $(wildcard tools/lib/*.sh))
INSTALL_DATA := examples/demo_trace.json.gz examples/demo.sql tools/html_report.sql tools/html_compare.sql
INSTALL_DOCS := $(shell find docs -name '*.md' | LC_ALL=C sort)

.PHONY: install uninstall test-install

install: build/tracesql.so
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/lib $(DESTDIR)$(DOCDIR)
	install -m 0755 build/tracesql.so $(DESTDIR)$(LIBDIR)/$(INSTALL_SO)
	ln -sf $(INSTALL_SO) $(DESTDIR)$(LIBDIR)/tracesql.so
	install -m 0755 $(addprefix tools/,$(INSTALL_BIN)) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(INSTALL_LIB) $(DESTDIR)$(DATADIR)/lib/
	install -m 0644 $(INSTALL_DATA) $(DESTDIR)$(DATADIR)/
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	@for f in $(INSTALL_DOCS); do \
	  install -D -m 0644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done
	@echo "install: docs in $(DESTDIR)$(DOCDIR) (README.md, docs/...)"
	@echo "install: commands in $(DESTDIR)$(BINDIR): $(INSTALL_BIN)"
	@if [ -n "$(DESTDIR)" ]; then \
	  echo "install: staged under DESTDIR=$(DESTDIR); ldconfig not run: once the files are in"; \
	  echo "  place (package installed), run 'ldconfig' as root, then in sqlite3: .load tracesql"; \
	elif [ "$$(id -u)" = 0 ]; then $(LDCONFIG) && \
	  echo "install: ldconfig done; in sqlite3: .load tracesql"; \
	else \
	  echo "install: run 'sudo ldconfig' once, then in sqlite3: .load tracesql"; fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(INSTALL_SO) $(DESTDIR)$(LIBDIR)/tracesql.so
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(INSTALL_BIN))
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then $(LDCONFIG); fi

test-install: build/tracesql.so
	@SQLITE3=$(SQLITE3) V=$(V) bash tests/install/check_install.sh
