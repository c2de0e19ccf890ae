package release

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
)

// BinaryPlatform reads the platform an executable was built for from its
// header: ELF is linux, Mach-O darwin, PE windows (the release's only
// systems), and the header's machine field the architecture.
func BinaryPlatform(data []byte) (Platform, error) {
	r := bytes.NewReader(data)
	switch {
	case bytes.HasPrefix(data, []byte(elf.ELFMAG)):
		f, err := elf.NewFile(r)
		if err != nil {
			return Platform{}, fmt.Errorf("ELF header: %w", err)
		}
		switch f.Machine {
		case elf.EM_X86_64:
			return Platform{"linux", "amd64"}, nil
		case elf.EM_AARCH64:
			return Platform{"linux", "arm64"}, nil
		}
		return Platform{}, fmt.Errorf("ELF for machine %v, neither amd64 nor arm64", f.Machine)
	case len(data) >= 4 && (bytes.Equal(data[:4], []byte{0xcf, 0xfa, 0xed, 0xfe})):
		f, err := macho.NewFile(r)
		if err != nil {
			return Platform{}, fmt.Errorf("Mach-O header: %w", err)
		}
		switch f.Cpu {
		case macho.CpuAmd64:
			return Platform{"darwin", "amd64"}, nil
		case macho.CpuArm64:
			return Platform{"darwin", "arm64"}, nil
		}
		return Platform{}, fmt.Errorf("Mach-O for CPU %v, neither amd64 nor arm64", f.Cpu)
	case bytes.HasPrefix(data, []byte("MZ")):
		f, err := pe.NewFile(r)
		if err != nil {
			return Platform{}, fmt.Errorf("PE header: %w", err)
		}
		switch f.Machine {
		case pe.IMAGE_FILE_MACHINE_AMD64:
			return Platform{"windows", "amd64"}, nil
		case pe.IMAGE_FILE_MACHINE_ARM64:
			return Platform{"windows", "arm64"}, nil
		}
		return Platform{}, fmt.Errorf("PE for machine %#x, neither amd64 nor arm64", f.Machine)
	}
	return Platform{}, fmt.Errorf("not an executable: neither ELF, 64-bit Mach-O nor PE")
}
