// Empty stand-in for CUDA's header: the emulated (portable) bodies use no f16 type.
#pragma once
