;;; beeuni-test.el --- beeuni.el and eglot against the real beeuni-lsp -*- lexical-binding: t -*-

;; Headless, in Debian's emacs-nox with elpa-eglot and elpa-yaml-mode:
;;
;;   BEEUNI_LSP=/path/to/beeuni-lsp HOME=$(mktemp -d) emacs --batch \
;;     -l editors/emacs/test/beeuni-test.el -f ert-run-tests-batch-and-exit
;;
;; Not -Q: Debian's site-start activates the elpa-* packages, as for a user;
;; the empty HOME keeps any user configuration out.
;;
;; A real eglot session against the real server on copies of the Neovim
;; tests' fixtures (editors/neovim/test/fixtures), in a temporary folder:
;; the mode, diagnostics on the manifest and on a tool module, hover
;; (through eglot's eldoc function), completion (through
;; `completion-at-point'), a quick fix and the eject code action (through
;; `eglot-code-actions', as a user picks them), `beeuni-eject' and
;; `beeuni-show-tools', and the inspectModules setting.  The tests run in
;; the order of their names, each building on the previous ones.

;;; Code:

(defconst beeuni-test--dir (file-name-directory (or load-file-name buffer-file-name)))
(add-to-list 'load-path (expand-file-name ".." beeuni-test--dir))

(require 'ert)
(require 'cl-lib)
(require 'beeuni)

(defconst beeuni-test--server
  (let ((s (getenv "BEEUNI_LSP")))
    (unless (and s (file-executable-p s))
      (error "BEEUNI_LSP must name the beeuni-lsp binary (got %S)" s))
    s))

(defconst beeuni-test--fixtures
  (expand-file-name "../../neovim/test/fixtures/" beeuni-test--dir))

;; The T3 message for `web_search: beeuni:web_serch' (SPEC section 4, exact).
(defconst beeuni-test--t3
  "must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.")

;; Emacs 28 has no TypeScript mode; a user's typescript-mode (MELPA) or
;; typescript-ts-mode (Emacs 29+) is what beeuni-module-modes names.
(unless (fboundp 'typescript-mode)
  (define-derived-mode typescript-mode js-mode "TypeScript"))
(add-to-list 'auto-mode-alist '("\\.ts\\'" . typescript-mode))

(setq beeuni-lsp-command (list beeuni-test--server "serve")
      eglot-confirm-server-initiated-edits nil ; the eject's workspace/applyEdit
      eglot-sync-connect t
      eglot-send-changes-idle-time 0
      flymake-no-changes-timeout nil
      make-backup-files nil)
(add-hook 'beeuni-mode-hook #'beeuni-eglot-ensure)
(add-hook 'typescript-mode-hook #'beeuni-eglot-ensure)

(defun beeuni-test--copy-fixture (name)
  "A copy of the fixture NAME in a temporary folder; its path, with a slash."
  (let ((dir (expand-file-name name (make-temp-file "beeuni-" t))))
    (copy-directory (expand-file-name name beeuni-test--fixtures) dir)
    (file-name-as-directory (file-truename dir))))

(defvar beeuni-test--project (beeuni-test--copy-fixture "project"))
(defvar beeuni-test--inspect (beeuni-test--copy-fixture "inspect"))

(defun beeuni-test--wait (what pred &optional seconds)
  "Wait up to SECONDS (20) for PRED to return non-nil, reading the server."
  (let ((deadline (+ (float-time) (or seconds 20))) value)
    (while (and (not (setq value (funcall pred)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or value (ert-fail (format "timed out waiting for %s" what)))))

(defun beeuni-test--visit (file)
  "Visit FILE as a user does, run the command loop's hooks (where
`eglot-ensure' connects) and wait for the buffer to be managed."
  (let ((buffer (find-file-noselect file)))
    (with-current-buffer buffer
      (set-buffer buffer)
      (run-hooks 'post-command-hook)
      (beeuni-test--wait (format "eglot to manage %s" file)
                         (lambda () (with-current-buffer buffer eglot--managed-mode))))
    buffer))

(defun beeuni-test--manifest ()
  (find-file-noselect (expand-file-name "beeuni.yaml" beeuni-test--project)))

(defun beeuni-test--pos (line col)
  "The position of 0-based LINE and character COL."
  (save-excursion
    (goto-char (point-min))
    (forward-line line)
    (forward-char col)
    (point)))

(defun beeuni-test--line (n)
  "Line N (1-based) of the current buffer."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- n))
    (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun beeuni-test--diags ()
  "Flymake's diagnostics of the current buffer, after asking eglot for them."
  (flymake-start)
  (flymake-diagnostics))

(defun beeuni-test--diag (code)
  "The flymake diagnostic of the current buffer with the LSP CODE, or nil."
  (cl-find-if (lambda (d)
                (equal code (plist-get (cdr (assq 'eglot-lsp-diag (flymake-diagnostic-data d))) :code)))
              (beeuni-test--diags)))

(defun beeuni-test--line-col (pos)
  "The 0-based (LINE COLUMN) of POS."
  (save-excursion
    (goto-char pos)
    (list (1- (line-number-at-pos)) (current-column))))

(defun beeuni-test--pick-action (line col match)
  "Run `eglot-code-actions' at 0-based LINE, COL as a user does, picking
the action whose title matches MATCH; that title."
  (let ((picked nil) (titles nil))
    (goto-char (beeuni-test--pos line col))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq titles (mapcar #'car collection))
                 (setq picked (cl-find-if (lambda (title) (string-match-p match title)) titles))
                 (or picked (ert-fail (format "no action matching %S among %S" match titles))))))
      ;; Invoked from the keyboard (a mouse event would pop a menu up).
      (let ((last-nonmenu-event ?a))
        (call-interactively #'eglot-code-actions)))
    picked))

(defun beeuni-test--save-all ()
  (save-some-buffers t))

(defun beeuni-test--read (file)
  (and (file-exists-p file)
       (with-temp-buffer (insert-file-contents file) (buffer-string))))

;; docs/editors.md's Emacs blocks, as a user copies them.
(defconst beeuni-test--docs (expand-file-name "../../../docs/editors.md" beeuni-test--dir))

(defun beeuni-test--doc-block (name)
  "The text of the block of docs/editors.md marked `<!-- check: NAME -->'."
  (with-temp-buffer
    (insert-file-contents beeuni-test--docs)
    (unless (re-search-forward (concat "^<!-- check: " (regexp-quote name) " -->\n+```elisp\n") nil t)
      (error "docs/editors.md has no elisp block marked %s" name))
    (buffer-substring-no-properties (point) (progn (re-search-forward "^```$") (match-beginning 0)))))

(defun beeuni-test--read-all (text)
  "The forms of TEXT."
  (let ((pos 0) forms)
    (while (string-match-p "[^ \t\n]" (substring text pos))
      (let ((r (read-from-string text pos)))
        (push (car r) forms)
        (setq pos (cdr r))))
    (nreverse forms)))

(ert-deftest beeuni-00-docs ()
  "The Emacs blocks of docs/editors.md do what the docs say, in a fresh Emacs
with the clone at this repository."
  (let* ((repo (expand-file-name "../../.." beeuni-test--dir))
         (code (concat (beeuni-test--doc-block "emacs-init") (beeuni-test--doc-block "emacs-modules")))
         (code (replace-regexp-in-string "~/src/beeuni-lsp" repo code t t))
         (check `(progn
                   ,@(beeuni-test--read-all code)
                   (princ (format "%s %s %s %s" (featurep 'beeuni)
                                  (and (memq 'beeuni-eglot-ensure beeuni-mode-hook) t)
                                  (and (memq 'beeuni-eglot-ensure js-mode-hook) t)
                                  (and (memq 'beeuni-eglot-ensure yaml-mode-hook) t)))))
         (out (with-temp-buffer
                (call-process (expand-file-name invocation-name invocation-directory) nil t nil
                              "--batch" "--eval" (prin1-to-string check))
                (buffer-string))))
    (should (string-suffix-p "t t t t" out)))
  ;; use-package is built into Emacs 29+ only: the form is read, not run.
  (should (eq 'use-package (car (car (beeuni-test--read-all (beeuni-test--doc-block "emacs-use-package"))))))
  (should (equal '((nil . ((eglot-workspace-configuration . (:beeuni (:inspectModules :json-false))))))
                 (car (beeuni-test--read-all (beeuni-test--doc-block "emacs-dir-locals"))))))

(ert-deftest beeuni-01-served-files ()
  "The files beeuni-lsp serves, as in the other clients."
  (let ((root beeuni-test--project))
    (should (equal root (beeuni-served-root (concat root "beeuni.yaml"))))
    (should (equal root (beeuni-served-root (concat root "tools/lookup_order.ts"))))
    (should (equal root (beeuni-served-root (concat root "tools/x/y.js"))))
    (should-not (beeuni-served-root (concat root ".github/workflows/ci.yml")))
    (should-not (beeuni-served-root (concat root "node_modules/x/index.js")))
    (should (equal (concat root "node_modules/x/")
                   (progn (make-directory (concat root "node_modules/x") t)
                          (write-region "" nil (concat root "node_modules/x/beeuni.yaml"))
                          (prog1 (beeuni-served-root (concat root "node_modules/x/beeuni.yaml"))
                            (delete-directory (concat root "node_modules") t)))))
    (should-not (beeuni-served-root (concat (file-name-directory (directory-file-name root)) "elsewhere.ts")))))

(ert-deftest beeuni-02-mode ()
  "beeuni.yaml opens in `beeuni-mode', derived from yaml-mode (elpa-yaml-mode)."
  (with-current-buffer (beeuni-test--manifest)
    (should (eq major-mode 'beeuni-mode))
    (should (eq (symbol-function 'beeuni-base-mode) 'yaml-mode))
    (should (derived-mode-p 'yaml-mode))
    (should (equal comment-start "# "))))

(ert-deftest beeuni-02-mode-without-yaml-mode ()
  "Without yaml-mode (nor yaml-ts-mode's grammar), `beeuni-mode' derives
from `beeuni-yaml-fallback-mode' and still opens beeuni.yaml."
  (let* ((code `(progn
                  (require 'cl-lib)
                  (setq load-path (cl-remove-if (lambda (d) (string-match-p "yaml-mode" d)) load-path))
                  (add-to-list 'load-path ,(expand-file-name ".." beeuni-test--dir))
                  (require 'beeuni)
                  (with-current-buffer (find-file-noselect ,(expand-file-name "beeuni.yaml" beeuni-test--project))
                    (princ (format "%s %s %s %s" (symbol-function 'beeuni-base-mode) major-mode
                                   (featurep 'yaml-mode) comment-start)))))
         (out (with-temp-buffer
                (call-process (expand-file-name invocation-name invocation-directory) nil t nil
                              "--batch" "--eval" (prin1-to-string code))
                (buffer-string))))
    (should (string-suffix-p "beeuni-yaml-fallback-mode beeuni-mode nil # " out))))

(ert-deftest beeuni-03-attach ()
  "eglot starts the beeuni-lsp session for the project root."
  (with-current-buffer (beeuni-test--visit (expand-file-name "beeuni.yaml" beeuni-test--project))
    (let ((server (eglot-current-server)))
      (should (cl-typep server 'beeuni-eglot-server))
      (should (equal beeuni-test--project (project-root (eglot--project server))))
      (should (equal "beeuni-lsp" (plist-get (eglot--server-info server) :name)))
      (should (memq 'typescript-mode (eglot--major-modes server))))))

(ert-deftest beeuni-04-manifest-diagnostic ()
  "The T3 diagnostic with its exact message, code, severity and position."
  (with-current-buffer (beeuni-test--manifest)
    (let ((d (beeuni-test--wait "the T3 diagnostic" (lambda () (beeuni-test--diag "T3")))))
      (should (string-suffix-p (concat "[T3]: " beeuni-test--t3) (flymake-diagnostic-text d)))
      (should (eq 'eglot-error (flymake-diagnostic-type d)))
      ;; Line 3 (0-based 2), on the value `beeuni:web_serch' (column 14).
      (should (equal '(2 14) (beeuni-test--line-col (flymake-diagnostic-beg d))))
      (should (equal "beeuni:web_serch"
                     (buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))))))

(ert-deftest beeuni-05-module-diagnostic ()
  "A tool module joins its project's session and gets its M4 diagnostic;
the manifest its T11."
  (let* ((manifest (beeuni-test--visit (expand-file-name "beeuni.yaml" beeuni-test--inspect)))
         (module (beeuni-test--visit (expand-file-name "tools/broken.ts" beeuni-test--inspect)))
         (server (with-current-buffer manifest (eglot-current-server))))
    (with-current-buffer module
      (should (eq major-mode 'typescript-mode))
      (should (eq server (eglot-current-server)))
      (let ((d (beeuni-test--wait "the M4 diagnostic" (lambda () (beeuni-test--diag "M4")))))
        (should (string-match-p "\\[M4\\]: no default export: the daemon skips a module without `export default { description, parameters, execute }`"
                                (flymake-diagnostic-text d)))
        (should (eq 'eglot-error (flymake-diagnostic-type d)))))
    (with-current-buffer manifest
      (let ((d (beeuni-test--wait "the T11 diagnostic" (lambda () (beeuni-test--diag "T11")))))
        (should (equal '(4 10) (beeuni-test--line-col (flymake-diagnostic-beg d))))))
    ;; The other project's session is another one.
    (should-not (eq server (with-current-buffer (beeuni-test--manifest) (eglot-current-server))))))

(ert-deftest beeuni-06-hover ()
  "Hover on a Beeuni tool's key, through eglot's eldoc function."
  (with-current-buffer (beeuni-test--manifest)
    (goto-char (beeuni-test--pos 3 4))
    (let* ((text nil)
           (cb (lambda (string &rest _) (setq text (or string 'none)))))
      (eglot-hover-eldoc-function cb)
      (beeuni-test--wait "the hover" (lambda () text))
      (should (stringp text))
      ;; Markdown as the server wrote it (no markdown-mode installed here).
      (should (string-prefix-p "**image_search** · `beeuni` · source `beeuni:image_search`\n\nSearches the web for images"
                               text)))))

(ert-deftest beeuni-07-completion ()
  "Completion in an agent's tools list, through `completion-at-point'."
  (with-current-buffer (beeuni-test--manifest)
    ;; `    tools: [read, lookup_order, web_search]': at the start of `read'.
    (goto-char (beeuni-test--pos 9 12))
    (let* ((capf (eglot-completion-at-point))
           (labels (all-completions "" (nth 2 capf))))
      (should (memq #'eglot-completion-at-point completion-at-point-functions))
      (dolist (want '("bash" "image_search" "show"))
        (should (member want labels))))))

(ert-deftest beeuni-08-quick-fix ()
  "The T3 quick fix, picked from `eglot-code-actions', rewrites the value."
  (with-current-buffer (beeuni-test--manifest)
    (let ((d (beeuni-test--wait "the T3 diagnostic" (lambda () (beeuni-test--diag "T3")))))
      (goto-char (flymake-diagnostic-beg d))
      (let ((title (beeuni-test--pick-action 2 14 "beeuni:web_search")))
        (should (string-match-p "beeuni:web_search" title)))
      (should (equal "  web_search: beeuni:web_search" (beeuni-test--line 3)))
      (eglot--signal-textDocument/didChange)
      (beeuni-test--wait "the T3 diagnostic to go away" (lambda () (not (beeuni-test--diag "T3")))))))

(ert-deftest beeuni-09-eject-code-action ()
  "The eject code action on `memory' writes tools/memory.ts and rewrites the line."
  (with-current-buffer (beeuni-test--manifest)
    (beeuni-test--pick-action 4 3 "[Ee]ject.*memory")
    (let ((module (expand-file-name "tools/memory.ts" beeuni-test--project))
          (manifest (expand-file-name "beeuni.yaml" beeuni-test--project)))
      (beeuni-test--wait "tools/memory.ts and line 5"
                         (lambda ()
                           (beeuni-test--save-all)
                           (let ((m (beeuni-test--read module)))
                             (and m (string-match-p "export default" m)
                                  (with-temp-buffer
                                    (insert-file-contents manifest)
                                    (string-match-p "\\`  memory: tools/memory\\.ts +# ejected from beeuni:memory\\'"
                                                    (beeuni-test--line 5))))))))))

(ert-deftest beeuni-10-eject-command ()
  "`beeuni-eject' offers the ejectable tools and ejects one."
  (with-current-buffer (beeuni-test--manifest)
    (let ((names (beeuni-ejectable-tools)))
      (should (member "image_search" names))
      (should (member "show" names))
      (should-not (member "memory" names)))
    (beeuni-eject "image_search")
    (let ((module (expand-file-name "tools/image_search.ts" beeuni-test--project)))
      (beeuni-test--wait "tools/image_search.ts and line 4"
                         (lambda ()
                           (beeuni-test--save-all)
                           (let ((m (beeuni-test--read module)))
                             (and m (string-match-p "export default" m)
                                  (with-current-buffer (beeuni-test--manifest)
                                    (string-match-p "\\`  image_search: tools/image_search\\.ts +# ejected from beeuni:image_search\\'"
                                                    (beeuni-test--line 4))))))))
    (should (equal "# A small project for the editor tests: one mistake (line 3) and tools to eject."
                   (beeuni-test--line 1)))))

(ert-deftest beeuni-11-show-tools ()
  "`beeuni-show-tools' shows the tools ls table and each agent's tools."
  (with-current-buffer (beeuni-test--manifest)
    (let ((text (with-current-buffer (beeuni-show-tools) (buffer-string))))
      (should (string-match-p "NAME +KIND +SOURCE" text))
      (should (string-match-p "image_search +beeuni (overridden) +tools/image_search\\.ts" text))
      (should (string-match-p "lookup_order +project +tools/lookup_order\\.ts" text))
      (should (string-match-p "^AGENT TOOLS$" text))
      (should (string-match "^support +\\(.*\\)$" text))
      (should (equal '("lookup_order" "read" "web_search")
                     (sort (split-string (match-string 1 text) ", ") #'string<))))))

(ert-deftest beeuni-12-inspect-modules-setting ()
  "The inspectModules setting (eglot-workspace-configuration) turns T11 off and on."
  (with-current-buffer (find-file-noselect (expand-file-name "beeuni.yaml" beeuni-test--inspect))
    (let ((server (eglot-current-server)))
      (beeuni-test--wait "T11" (lambda () (beeuni-test--diag "T11")))
      ;; The value docs/editors.md gives for .dir-locals.el.
      (setq-default eglot-workspace-configuration
                    (alist-get 'eglot-workspace-configuration
                               (alist-get nil (car (beeuni-test--read-all (beeuni-test--doc-block "emacs-dir-locals"))))))
      (eglot-signal-didChangeConfiguration server)
      (beeuni-test--wait "T11 to go away" (lambda () (not (beeuni-test--diag "T11"))))
      (setq-default eglot-workspace-configuration '(:beeuni (:inspectModules t)))
      (eglot-signal-didChangeConfiguration server)
      (beeuni-test--wait "T11 to come back" (lambda () (beeuni-test--diag "T11"))))))

;;; beeuni-test.el ends here
