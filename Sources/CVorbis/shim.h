#ifndef MIDIHUB_CVORBIS_SHIM_H
#define MIDIHUB_CVORBIS_SHIM_H
/* libvorbisfile's static default callbacks read from a FILE; midihub reads from memory. */
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <string.h>
#include <vorbis/vorbisfile.h>

/*
 * Decoding one Ogg Vorbis stream held in memory (an SF3 font's compressed sample), for
 * Sources/SoundFont/VorbisSample.swift. The callbacks are C: libvorbisfile calls them
 * through function pointers with a context pointer. Only the Swift module `SoundFont`
 * imports this header.
 */
typedef struct {
    const unsigned char *bytes;
    size_t count;
    size_t position;
} midihub_vorbis_memory;

static size_t midihub_vorbis_read(void *destination, size_t size, size_t items, void *source) {
    midihub_vorbis_memory *memory = (midihub_vorbis_memory *)source;
    size_t wanted = size * items, left = memory->count - memory->position;
    size_t count = wanted < left ? wanted : left;
    memcpy(destination, memory->bytes + memory->position, count);
    memory->position += count;
    return size == 0 ? 0 : count / size;
}

static int midihub_vorbis_seek(void *source, ogg_int64_t offset, int whence) {
    midihub_vorbis_memory *memory = (midihub_vorbis_memory *)source;
    ogg_int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (ogg_int64_t)memory->position : (ogg_int64_t)memory->count;
    ogg_int64_t target = base + offset;
    if (target < 0 || target > (ogg_int64_t)memory->count) return -1;
    memory->position = (size_t)target;
    return 0;
}

static long midihub_vorbis_tell(void *source) {
    return (long)((midihub_vorbis_memory *)source)->position;
}

/* Opens `memory` (which must outlive `file`) as an Ogg Vorbis stream: 0 or an OV_ error. */
static inline int midihub_vorbis_open(OggVorbis_File *file, midihub_vorbis_memory *memory) {
    ov_callbacks callbacks = { midihub_vorbis_read, midihub_vorbis_seek, NULL, midihub_vorbis_tell };
    return ov_open_callbacks(memory, file, NULL, 0, callbacks);
}
#endif
