package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
)

// Settings: workspace/configuration, workspace/didChangeConfiguration and
// the "beeuni" section they carry. A change of settings is a change like
// any other for the engine (markAllDirty).

// fetchSettings asks the client for the "beeuni" section.
func (s *Server) fetchSettings(ctx context.Context) {
	var result []json.RawMessage
	params := &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: "beeuni"}}}
	if err := s.call(ctx, protocol.MethodWorkspaceConfiguration, params, &result); err != nil {
		s.tracef("workspace/configuration: %v", err)
		return
	}
	if len(result) == 0 || !present(result[0]) {
		return
	}
	s.applySettings(result[0])
}

func (s *Server) applySettings(raw json.RawMessage) {
	s.mu.Lock()
	before := s.settings
	err := s.settings.merge(raw)
	after := s.settings
	s.mu.Unlock()
	if err != nil {
		s.logToClient(protocol.MessageTypeWarning, "beeuni-lsp: "+err.Error())
		return
	}
	if before != after {
		s.ws.markAllDirty()
	}
}

func (s *Server) currentSettings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

func didChangeConfiguration(ctx context.Context, s *Server, params json.RawMessage) error {
	var p didChangeConfigurationParams
	if err := decodeParams(protocol.MethodWorkspaceDidChangeConfiguration, params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	pull := s.client.configuration
	s.mu.Unlock()
	if pull {
		// The settings in the notification may be partial or absent: ask.
		s.goBackground("configuration", s.fetchSettings)
		return nil
	}
	if present(p.Settings) {
		s.applySettings(p.Settings)
	}
	return nil
}

// Settings are the user's settings (section "beeuni").
type Settings struct {
	// InspectModules runs the module inspection (rule T11). Default true.
	InspectModules bool `json:"inspectModules"`
}

func defaultSettings() Settings { return Settings{InspectModules: true} }

// merge reads settings from raw: the settings object itself, or an object
// holding it under "beeuni". Absent fields keep their value.
func (st *Settings) merge(raw json.RawMessage) error {
	var wrapper struct {
		Beeuni json.RawMessage `json:"beeuni"`
	}
	if err := json.Unmarshal(raw, &wrapper); err != nil {
		return fmt.Errorf("settings are not an object: %w", err)
	}
	if present(wrapper.Beeuni) {
		raw = wrapper.Beeuni
	}
	var fields struct {
		InspectModules *bool `json:"inspectModules"`
	}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("invalid beeuni settings: %w", err)
	}
	if fields.InspectModules != nil {
		st.InspectModules = *fields.InspectModules
	}
	return nil
}
