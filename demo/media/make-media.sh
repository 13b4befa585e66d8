#!/usr/bin/env bash
# Regenerates the demo's sample media with ffmpeg (5.1 or newer) from its built-in test sources.
# Nothing is downloaded: every file is synthesised here. See README.md beside this script.
set -euo pipefail
cd "$(dirname "$0")"
command -v ffmpeg >/dev/null || { echo "make-media.sh: ffmpeg is required (apt-get install ffmpeg)" >&2; exit 1; }
ff() { ffmpeg -y -hide_banner -loglevel error "$@"; }

# clip.webm: 6 s, 480x270, 30 fps test pattern (VP9) with a beeping 440 Hz tone (Opus). The
# video is converted with the BT.601 matrix and tagged so: untagged, Chromium's video element
# reads it as BT.601 and WebCodecs (the renderer's decoder, and OpenCut's) as BT.709, and the
# red bar came out 255,0,0 through one and 255,24,0 through the other.
ff -f lavfi -i "testsrc2=size=480x270:rate=30:duration=6" \
   -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=6" \
   -vf "scale=out_color_matrix=bt601:out_range=tv,format=yuv420p" \
   -c:v libvpx-vp9 -b:v 90k -deadline good -cpu-used 4 -row-mt 1 -g 60 -pix_fmt yuv420p \
   -colorspace smpte170m -color_primaries smpte170m -color_trc smpte170m -color_range tv \
   -c:a libopus -b:a 24k -ac 1 clip.webm

# still.jpg: 640x360 four-colour gradient with a grid and a light square.
ff -f lavfi -i "gradients=size=640x360:c0=0x1e3a8a:c1=0x7c3aed:c2=0xf97316:c3=0xfacc15:nb_colors=4:type=linear:x0=0:y0=0:x1=640:y1=360:speed=0.00001,drawbox=x=420:y=70:w=150:h=150:color=white@0.3:t=fill,drawgrid=w=40:h=40:t=1:c=white@0.12" \
   -frames:v 1 -q:v 5 still.jpg

# tone.ogg: 8 s mono arpeggio (C4, G4, C5, E5 plucks, two per second), Opus.
ff -f lavfi -i "aevalsrc='0.25*sin(2*PI*t*(262+131*floor(mod(t*2,4))))*exp(-3*mod(t,0.5))':s=48000:d=8" \
   -c:a libopus -b:a 24k -ac 1 tone.ogg

ls -l clip.webm still.jpg tone.ogg

# ../../tests/fixtures/media/bars-per-second.mp4 (test fixture, not shipped): 4 s, 160x90, 30 fps
# VP9 in MP4 (media_import reads MP4; Debian's Chromium decodes VP9 in it), each second two flat
# bars (left | right): red | blue, green | white, yellow | black, cyan | magenta. The render
# tests probe them (tests/js/render-fidelity.test.mjs, tests/js/render-mcp.test.mjs). BT.601
# and tagged, as clip.webm.
bars() { echo "color=c=$1:s=160x90:r=30:d=1,drawbox=x=80:y=0:w=80:h=90:color=$2:t=fill"; }
ff -f lavfi -i "$(bars 0xff0000 0x0000ff)" -f lavfi -i "$(bars 0x00ff00 0xffffff)" \
   -f lavfi -i "$(bars 0xffff00 0x000000)" -f lavfi -i "$(bars 0x00ffff 0xff00ff)" \
   -filter_complex "[0][1][2][3]concat=n=4:v=1:a=0,scale=out_color_matrix=bt601:out_range=tv,format=yuv420p" \
   -c:v libvpx-vp9 -b:v 40k -deadline good -cpu-used 4 -g 30 -pix_fmt yuv420p \
   -colorspace smpte170m -color_primaries smpte170m -color_trc smpte170m -color_range tv \
   -movflags +faststart ../../tests/fixtures/media/bars-per-second.mp4
