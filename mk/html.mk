# The HTML report (tools/tracesql-html-report, docs/html-report.md).
#   make test-html   writes the demo trace's page, checks it is self-contained and
#                    holds its charts, renders it in headless Chromium (Debian's
#                    chromium, installed by make deps) and checks the screenshot is not
#                    blank and the console is silent (tests/html/check_html.sh);
#                    SKIPs loudly without chromium. TSQL_HTML_KEEP=dir keeps the page
#                    and the screenshot.
.PHONY: test-html

test-html: build/tracesql.so
	@TSQL_EXT=build/tracesql SQLITE3=$(SQLITE3) PYTHON=$(PYTHON) bash tests/html/check_html.sh
