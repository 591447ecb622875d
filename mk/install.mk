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
# the report scripts, as commands
INSTALL_BIN := perf_report.sh:tracesql-perf-report html_report.sh:tracesql-html-report
INSTALL_DOCS := $(shell find docs -name '*.md' | LC_ALL=C sort)

.PHONY: install uninstall test-install

install: build/tracesql.so
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 build/tracesql.so $(DESTDIR)$(LIBDIR)/$(INSTALL_SO)
	ln -sf $(INSTALL_SO) $(DESTDIR)$(LIBDIR)/tracesql.so
	@for p in $(INSTALL_BIN); do \
	  echo "install -m 0755 examples/$${p%%:*} $(DESTDIR)$(BINDIR)/$${p##*:}"; \
	  install -m 0755 examples/$${p%%:*} $(DESTDIR)$(BINDIR)/$${p##*:} || exit 1; done
	install -m 0644 examples/demo_trace.json.gz examples/demo.sql examples/html_report.sql examples/html_compare.sql $(DESTDIR)$(DATADIR)/
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	@for f in $(INSTALL_DOCS); do \
	  install -D -m 0644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done
	@echo "install: docs in $(DESTDIR)$(DOCDIR) (README.md, docs/...)"
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then $(LDCONFIG) && \
	  echo "install: ldconfig done; in sqlite3: .load tracesql"; \
	elif [ -z "$(DESTDIR)" ]; then \
	  echo "install: run 'sudo ldconfig' once, then in sqlite3: .load tracesql"; fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(INSTALL_SO) $(DESTDIR)$(LIBDIR)/tracesql.so
	@for p in $(INSTALL_BIN); do echo "rm -f $(DESTDIR)$(BINDIR)/$${p##*:}"; rm -f $(DESTDIR)$(BINDIR)/$${p##*:}; done
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then $(LDCONFIG); fi

test-install: build/tracesql.so
	@SQLITE3=$(SQLITE3) V=$(V) bash tests/install/check_install.sh
