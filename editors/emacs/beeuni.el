;;; beeuni.el --- Beeuni manifests in Emacs, with eglot and beeuni-lsp -*- lexical-binding: t -*-

;; Copyright The beeuni-lsp authors
;; SPDX-License-Identifier: Apache-2.0
;; URL: https://github.com/beeuni/beeuni-lsp
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (eglot "1.9"))
;; Keywords: languages, tools

;;; Commentary:

;; `beeuni-mode' edits beeuni.yaml: it is YAML (derived from `yaml-mode'
;; when installed, else from `yaml-ts-mode' when the tree-sitter YAML
;; grammar is, else from a minimal YAML mode of this file), with
;; beeuni-lsp as its language server through eglot.
;;
;;   (require 'beeuni)
;;   (add-hook 'beeuni-mode-hook #'beeuni-eglot-ensure)
;;
;; The tool modules and imported YAML files of a Beeuni project may be
;; served too (eglot gives a buffer one server: in those buffers beeuni-lsp
;; replaces typescript-language-server or yaml-language-server):
;;
;;   (dolist (hook '(typescript-mode-hook typescript-ts-mode-hook js-mode-hook
;;                   js-ts-mode-hook yaml-mode-hook yaml-ts-mode-hook))
;;     (add-hook hook #'beeuni-eglot-ensure))
;;
;; `beeuni-eglot-ensure' does nothing in a file beeuni-lsp has nothing to
;; say about (outside a folder tree holding beeuni.yaml, in a hidden
;; folder or node_modules below it), so those hooks leave other projects
;; to their usual servers.  One beeuni-lsp runs per project root (the
;; nearest folder holding beeuni.yaml) and serves all of its buffers.
;;
;; Commands: `beeuni-eject' (eject a Beeuni tool into tools/NAME.ts) and
;; `beeuni-show-tools' (the `beeuni tools ls' table and each agent's tools).
;; Code actions, quick fixes, hover, completion and diagnostics are eglot's
;; own (`eglot-code-actions', `eldoc', `completion-at-point', flymake).

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'project)

(defgroup beeuni nil
  "Beeuni manifests and the beeuni-lsp language server."
  :group 'languages
  :prefix "beeuni-")

(defcustom beeuni-lsp-command '("beeuni-lsp" "serve")
  "The command that runs beeuni-lsp: the program, then its arguments."
  :type '(repeat string))

(defcustom beeuni-inspect-modules t
  "Whether beeuni-lsp inspects each tool module (rule T11).
Sent as `initializationOptions'.  A project may also set it through
`eglot-workspace-configuration' (section `:beeuni'), which the server
reads at any time."
  :type 'boolean)

(defcustom beeuni-module-modes
  '(yaml-mode yaml-ts-mode typescript-mode typescript-ts-mode js-mode js-ts-mode)
  "Major modes of the files beeuni-lsp may serve besides `beeuni-mode'.
A buffer of one of these modes joins its project's beeuni-lsp session
when `beeuni-eglot-ensure' runs in it (from that mode's hook)."
  :type '(repeat symbol))

;;; The project root and the files the server speaks about

(defun beeuni-root (file)
  "The nearest folder at or above FILE holding beeuni.yaml, or nil."
  (let ((dir (locate-dominating-file file "beeuni.yaml")))
    (and dir (file-name-as-directory (expand-file-name dir)))))

(defun beeuni-served-root (file)
  "The project root when beeuni-lsp serves FILE, or nil.
Any beeuni.yaml is served; another file is when a folder at or above
it holds beeuni.yaml, unless it lies in a hidden folder (.github/) or
in node_modules below that root."
  (let* ((file (expand-file-name file))
         (root (beeuni-root file)))
    (cond ((null root) nil)
          ((equal (file-name-nondirectory file) "beeuni.yaml") root)
          ((cl-some (lambda (part)
                      (or (equal part "node_modules")
                          (and (string-prefix-p "." part) (not (equal part ".")))))
                    (split-string (or (file-name-directory (file-relative-name file root)) "")
                                  "/" t))
           nil)
          (t root))))

;;; The major mode

(define-derived-mode beeuni-yaml-fallback-mode prog-mode "YAML"
  "A minimal YAML mode for `beeuni-mode' when neither `yaml-mode' nor
`yaml-ts-mode' (with its grammar) is available: `#' comments, spaces,
two-column indentation."
  (modify-syntax-entry ?# "<" beeuni-yaml-fallback-mode-syntax-table)
  (modify-syntax-entry ?\n ">" beeuni-yaml-fallback-mode-syntax-table)
  (modify-syntax-entry ?' "\"" beeuni-yaml-fallback-mode-syntax-table)
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+[\t ]*")
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 2)
  (setq-local indent-line-function #'indent-relative))

(declare-function yaml-mode "yaml-mode")
(declare-function yaml-ts-mode "yaml-ts-mode")
(declare-function treesit-language-available-p "treesit.c")

(defalias 'beeuni-base-mode
  (cond ((require 'yaml-mode nil t) #'yaml-mode)
        ((and (fboundp 'yaml-ts-mode)
              (fboundp 'treesit-language-available-p)
              (treesit-language-available-p 'yaml))
         #'yaml-ts-mode)
        (t #'beeuni-yaml-fallback-mode))
  "The YAML mode `beeuni-mode' derives from, chosen when beeuni.el loads:
`yaml-mode' when installed, else `yaml-ts-mode' when the tree-sitter
YAML grammar is, else `beeuni-yaml-fallback-mode'.")

;;;###autoload
(define-derived-mode beeuni-mode beeuni-base-mode "Beeuni"
  "Major mode for beeuni.yaml: YAML, served by beeuni-lsp.
\\{beeuni-mode-map}")

;;;###autoload
(add-to-list 'auto-mode-alist '("/beeuni\\.yaml\\'" . beeuni-mode))

(put 'beeuni-mode 'eglot-language-id "beeuni")

;;; eglot

(defclass beeuni-eglot-server (eglot-lsp-server) ()
  "A beeuni-lsp session.")

(cl-defmethod eglot-initialization-options ((_server beeuni-eglot-server))
  "The server's `initializationOptions': `beeuni-inspect-modules'."
  (list :inspectModules (if beeuni-inspect-modules t :json-false)))

(defun beeuni-eglot-contact (&optional _interactive)
  "The `eglot-server-programs' contact of beeuni-lsp."
  (cons 'beeuni-eglot-server beeuni-lsp-command))

;; `M-x eglot' in a beeuni.yaml buffer.
(add-to-list 'eglot-server-programs '(beeuni-mode . beeuni-eglot-contact))

(defun beeuni--project (dir)
  "A project whose root is the Beeuni root of DIR, for eglot only.
In `project-find-functions' of the buffers `beeuni-eglot-ensure' serves."
  (when (bound-and-true-p eglot-lsp-context)
    (let ((root (beeuni-root dir)))
      (and root (cons 'beeuni root)))))

(cl-defmethod project-root ((project (head beeuni)))
  "The folder holding the Beeuni PROJECT's beeuni.yaml."
  (cdr project))

;;;###autoload
(defun beeuni-eglot-ensure ()
  "Start or join the project's beeuni-lsp session in this buffer.
Does nothing unless beeuni-lsp serves the buffer's file (see
`beeuni-served-root').  Meant for `beeuni-mode-hook' and, for the tool
modules and imported files, the hooks of `beeuni-module-modes'."
  (when (and buffer-file-name (beeuni-served-root buffer-file-name))
    ;; One server per project root: eglot finds the session by project and
    ;; major mode, so the project is the Beeuni root and the session's
    ;; modes are all those beeuni-lsp serves.
    (add-hook 'project-find-functions #'beeuni--project nil t)
    (setq-local eglot-server-programs
                (cons (cons (cons 'beeuni-mode beeuni-module-modes) #'beeuni-eglot-contact)
                      (default-value 'eglot-server-programs)))
    (eglot-ensure)))

;;; Commands

(defun beeuni--server ()
  "The beeuni-lsp session of the current buffer, or an error."
  (let ((server (eglot-current-server)))
    (unless (and server (cl-typep server 'beeuni-eglot-server))
      (user-error "No beeuni-lsp session in this buffer (see `beeuni-eglot-ensure')"))
    server))

(defun beeuni--project-uri ()
  "The URI of the current buffer's project manifest."
  (let ((manifest (expand-file-name "beeuni.yaml" (beeuni-root (or buffer-file-name default-directory)))))
    (if (fboundp 'eglot-path-to-uri)    ; eglot 1.16+
        (eglot-path-to-uri manifest)
      (with-no-warnings (eglot--path-to-uri manifest)))))

(defun beeuni--command (server command &rest arguments)
  "Ask SERVER to run COMMAND with ARGUMENTS; its answer."
  (jsonrpc-request server :workspace/executeCommand
                   (list :command command :arguments (vconcat arguments))))

(defun beeuni-ejectable-tools ()
  "The names of the Beeuni tools this buffer's project can eject now."
  (let ((server (beeuni--server)))
    (append (beeuni--command server "beeuni.ejectableTools"
                             (list :uri (beeuni--project-uri)))
            nil)))

;;;###autoload
(defun beeuni-eject (name &optional force)
  "Eject the Beeuni tool NAME into tools/NAME.ts and point the manifest at it.
With FORCE (a prefix argument), overwrite an existing copy.  The server
edits the files through eglot (`eglot-confirm-server-initiated-edits')."
  (interactive
   (list (let ((names (beeuni-ejectable-tools)))
           (unless names (user-error "No Beeuni tool can be ejected in this project"))
           (completing-read "Eject which Beeuni tool? " names nil t))
         current-prefix-arg))
  (let ((server (beeuni--server)))
    (beeuni--command server "beeuni.eject"
                     (list :uri (beeuni--project-uri) :name name
                           :force (if force t :json-false)))
    (message "beeuni: ejected %s into tools/%s.ts" name name)))

(defun beeuni--session-tools-text (result)
  "The text of the beeuni.sessionTools RESULT: the table, then the agents."
  (let* ((table (string-trim-right (or (plist-get result :table) "")))
         (agents (append (plist-get result :agents) nil))
         (width (apply #'max 0 (mapcar (lambda (a) (length (format "%s" (plist-get a :name)))) agents)))
         (lines (if (string-empty-p table) nil (list table))))
    (when agents
      (push "" lines)
      (push "AGENT TOOLS" lines)
      (dolist (agent agents)
        (let ((names (mapcar (lambda (tool) (if (stringp tool) tool (format "%s" (plist-get tool :name))))
                             (append (plist-get agent :tools) nil))))
          (push (concat (string-pad (format "%s" (plist-get agent :name)) width) "  "
                        (if names (string-join names ", ") "(none)"))
                lines))))
    (if lines (string-join (nreverse lines) "\n") "(no tools)")))

;;;###autoload
(defun beeuni-show-tools ()
  "Show the `beeuni tools ls' table and the tools each agent sees."
  (interactive)
  (let* ((server (beeuni--server))
         (result (beeuni--command server "beeuni.sessionTools"
                                  (list :uri (beeuni--project-uri))))
         (buffer (get-buffer-create "*Beeuni session tools*")))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (beeuni--session-tools-text result) "\n"))
      (special-mode))
    (display-buffer buffer)
    buffer))

(provide 'beeuni)
;;; beeuni.el ends here
