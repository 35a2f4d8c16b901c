// The socket holder of scripts/bench/events: opens one event-stream socket (GET /v3/events,
// API.md §6.1) per session token, counts the message events they receive, and holds them open
// until told to stop. What it does, scripts/bench/events reads:
//
//   event-hold PORT TOKENS_FILE [MESSAGES]
//       (TOKENS_FILE: "user_id token" lines, as parley-event-load tokens writes them)
//   prints "ready N sockets opened in S s" once every socket has its hello (at most 64
//   handshakes at a time), "message_events N" on SIGUSR1, and on SIGTERM or SIGINT closes every
//   socket (a close frame, then the server's answer) and prints
//   "held N frames F message_events M closed_early C CODES cpu_seconds S"
//   (CODES: the close codes of the sockets the server closed before that, as "[:]" when none).
//   With MESSAGES (the fan-outs, whose sender is parley-event-load fanout), it also measures
//   the benchmark messages, whose text is "evtbench:SEQ:STAMP" (SEQ below MESSAGES, STAMP the
//   sender's CLOCK_MONOTONIC in nanoseconds, a clock every process of the machine shares): it
//   prints "complete" once every socket has every message, and before the "held" line
//   "delivered …", "latency_ms …" and "per_socket …" (see print_receipts).
//
// Why C and not Swift on NIO: this process shares the two cores with the server and PostgreSQL,
// so every cycle it spends is taken from the sends it is there to watch. NIO's client cost about
// 6 µs of CPU a frame, more than half of it in its pipeline (retain/release, a buffer per read);
// this loop is one epoll wait for many sockets and one read a frame, and a frame is looked at as
// bytes (substrings and digits), never parsed. Pings are answered, so a held socket lives for as
// long as it is held.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { CONNECTING, UPGRADING, OPEN, CLOSED };
enum { WINDOW = 64, READ_SIZE = 65536 };

struct conn {
    int fd;
    int state;
    int announced;
    const char *token;
    unsigned char *buf;
    size_t len, cap;
    int close_code;  // from the server's close frame; -1 none
    // With MESSAGES: which benchmark messages arrived (a bit each, to tell a duplicate), how
    // many, and the most in one second of this clock (open channels throttle others' messages).
    uint64_t *seen;
    unsigned received, in_second, max_per_second;
    time_t second;
};

static struct conn *conns;
static size_t total, announced_count, failed, closed_count, next_to_open, handshaking;
static unsigned long long frames, message_events, closed_early;
static int stopping, epfd, port;
// close code -> sockets the server closed early with it (codes are small numbers).
static unsigned long long early_codes[5000];
static unsigned long long early_other;
// With MESSAGES: the send-to-receive latencies in microseconds, one per first receipt.
static size_t messages;
static uint32_t *latencies;
static size_t delivered;
static unsigned long long duplicates, foreign;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static void die(const char *what) {
    fprintf(stderr, "event-hold: %s: %s\n", what, strerror(errno));
    exit(1);
}

// A client frame (always masked, RFC 6455 §5.3) with a payload of at most 125 bytes.
static void send_frame(struct conn *c, int opcode, const unsigned char *payload, size_t length) {
    unsigned char frame[2 + 4 + 125];
    static const unsigned char mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    if (length > 125) length = 125;
    frame[0] = 0x80 | opcode;
    frame[1] = 0x80 | (unsigned char)length;
    memcpy(frame + 2, mask, 4);
    for (size_t i = 0; i < length; i++) frame[6 + i] = payload[i] ^ mask[i % 4];
    // A frame this small fits the socket's buffer; a failed write shows up as the close that follows.
    (void)!write(c->fd, frame, 6 + length);
}

static void start_next(void);

static void finish(struct conn *c) {
    if (c->state == CLOSED) return;
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->state = CLOSED;
    free(c->buf);
    c->buf = NULL;
    closed_count++;
    if (!c->announced) {
        failed++;
        handshaking--;
        start_next();
    } else if (!stopping) {
        closed_early++;
        if (c->close_code >= 0 && c->close_code < 5000) early_codes[c->close_code]++;
        else early_other++;
    }
}

static void open_socket(struct conn *c) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) die("connect");
    c->state = CONNECTING;
    c->close_code = -1;
    struct epoll_event event = {.events = EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &event) < 0) die("epoll_ctl");
    handshaking++;
}

static void start_next(void) {
    while (!stopping && handshaking < WINDOW && next_to_open < total) open_socket(&conns[next_to_open++]);
}

static void send_upgrade(struct conn *c) {
    int error = 0;
    socklen_t size = sizeof error;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &size);
    if (error) return finish(c);
    char request[1024];
    int length = snprintf(request, sizeof request,
        "GET /v3/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSession-Token: %s\r\n\r\n",
        port, c->token);
    if (length >= (int)sizeof request || write(c->fd, request, length) != length) return finish(c);
    c->state = UPGRADING;
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &event);
}

static const char message_type[] = "\"type\":\"message_received\"";
static const char hello_prefix[] = "{\"type\":\"hello\"";
static const char marker[] = "evtbench:";

// The decimal number at *at, moving *at past it.
static uint64_t number_at(const unsigned char *bytes, size_t length, size_t *at) {
    uint64_t value = 0;
    for (; *at < length && bytes[*at] >= '0' && bytes[*at] <= '9'; (*at)++) value = value * 10 + (bytes[*at] - '0');
    return value;
}

// A message event's benchmark message, if it is one: counted once per socket, with its latency.
static void receive_benchmark_message(struct conn *c, const unsigned char *payload, size_t length) {
    const unsigned char *found = memmem(payload, length, marker, sizeof marker - 1);
    if (!found) return;
    size_t at = found - payload + sizeof marker - 1;
    uint64_t sequence = number_at(payload, length, &at);
    at++;  // the colon
    uint64_t stamp = number_at(payload, length, &at);
    if (sequence >= messages) {
        foreign++;
        return;
    }
    uint64_t bit = 1ULL << (sequence % 64);
    if (c->seen[sequence / 64] & bit) {
        duplicates++;
        return;
    }
    c->seen[sequence / 64] |= bit;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
    uint64_t micros = now > stamp ? (now - stamp) / 1000 : 0;
    latencies[delivered++] = micros > UINT32_MAX ? UINT32_MAX : (uint32_t)micros;
    c->received++;
    if (ts.tv_sec != c->second) c->second = ts.tv_sec, c->in_second = 0;
    if (++c->in_second > c->max_per_second) c->max_per_second = c->in_second;
    if (delivered == total * messages) {
        printf("complete\n");
        fflush(stdout);
    }
}

// Handles the complete frames at the start of the buffer; returns the bytes used.
static size_t take_frames(struct conn *c) {
    size_t at = 0;
    while (c->len - at >= 2) {
        unsigned char *p = c->buf + at;
        int opcode = p[0] & 0x0f;
        uint64_t length = p[1] & 0x7f;
        size_t header = 2;
        if (length == 126) {
            if (c->len - at < 4) break;
            length = ((uint64_t)p[2] << 8) | p[3];
            header = 4;
        } else if (length == 127) {
            if (c->len - at < 10) break;
            length = 0;
            for (int i = 0; i < 8; i++) length = (length << 8) | p[2 + i];
            header = 10;
        }
        if (c->len - at - header < length) break;
        unsigned char *payload = p + header;
        switch (opcode) {
        case 1:
            frames++;
            if (!c->announced) {
                if (length < sizeof hello_prefix - 1 || memcmp(payload, hello_prefix, sizeof hello_prefix - 1) != 0) {
                    finish(c);
                    return 0;
                }
                c->announced = 1;
                announced_count++;
                handshaking--;
                start_next();
            } else if (memmem(payload, length, message_type, sizeof message_type - 1)) {
                message_events++;
                if (messages) receive_benchmark_message(c, payload, length);
            }
            break;
        case 8:
            c->close_code = length >= 2 ? (payload[0] << 8) | payload[1] : -1;
            // Echo it (RFC 6455 §5.5.1) unless this side asked first; the server then ends the connection.
            if (!stopping) send_frame(c, 8, payload, length);
            break;
        case 9:
            send_frame(c, 10, payload, length);
            break;
        default:
            break;
        }
        at += header + length;
    }
    return at;
}

static void readable(struct conn *c) {
    if (c->cap - c->len < READ_SIZE) {
        c->cap = c->len + READ_SIZE;
        c->buf = realloc(c->buf, c->cap);
        if (!c->buf) die("realloc");
    }
    ssize_t got = read(c->fd, c->buf + c->len, c->cap - c->len);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (got <= 0) return finish(c);
    c->len += got;
    size_t used = 0;
    if (c->state == UPGRADING) {
        unsigned char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
        if (!end) return;
        if (c->len < 12 || memcmp(c->buf, "HTTP/1.1 101", 12) != 0) return finish(c);
        c->state = OPEN;
        used = end + 4 - c->buf;
    }
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
    used = take_frames(c);
    if (c->state == CLOSED) return;
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
    // A socket between frames gives its read buffer back: ten thousand would hold 640 MB.
    if (c->len == 0) {
        free(c->buf);
        c->buf = NULL;
        c->cap = 0;
    }
}

static void print_codes(void) {
    int any = 0;
    printf("[");
    for (int code = 0; code < 5000; code++) {
        if (!early_codes[code]) continue;
        printf("%s\"%d\": %llu", any ? ", " : "", code, early_codes[code]);
        any = 1;
    }
    if (early_other) printf("%s\"none\": %llu", any ? ", " : "", early_other), any = 1;
    printf("%s]", any ? "" : ":");
}

static int by_value(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

// The nearest-rank percentile of the sorted latencies, in milliseconds.
static double percentile_ms(double fraction) {
    if (!delivered) return 0;
    double exact = fraction * delivered;
    size_t rank = (size_t)exact;
    if (rank < exact || rank < 1) rank++;
    if (rank > delivered) rank = delivered;
    return latencies[rank - 1] / 1000.0;
}

// What the benchmark messages did: every socket's receipts, the latencies, and per socket (the
// sender's own socket gets all its messages; in an open channel everyone else's is throttled).
static void print_receipts(void) {
    size_t expected = total * messages, full = 0, others = 0;
    unsigned others_min = UINT32_MAX, others_max = 0, others_max_per_second = 0;
    for (size_t k = 0; k < total; k++) {
        struct conn *c = &conns[k];
        if (c->received == messages) {
            full++;
            continue;
        }
        others++;
        if (c->received < others_min) others_min = c->received;
        if (c->received > others_max) others_max = c->received;
        if (c->max_per_second > others_max_per_second) others_max_per_second = c->max_per_second;
    }
    qsort(latencies, delivered, sizeof *latencies, by_value);
    printf("delivered %zu/%zu missing %zu duplicates %llu foreign %llu closed_early %llu ", delivered, expected,
        expected - delivered, duplicates, foreign, closed_early);
    print_codes();
    printf("\nlatency_ms p50 %.2f p90 %.2f p99 %.2f max %.2f\n", percentile_ms(0.5), percentile_ms(0.9), percentile_ms(0.99),
        percentile_ms(1));
    printf("per_socket full %zu others %zu others_received min %u max %u others_max_per_second %u\n", full, others,
        others ? others_min : 0, others_max, others_max_per_second);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: event-hold PORT TOKENS_FILE [MESSAGES]\n");
        return 64;
    }
    port = atoi(argv[1]);
    messages = argc == 4 ? strtoul(argv[3], NULL, 10) : 0;
    FILE *file = fopen(argv[2], "r");
    if (!file) die(argv[2]);
    char line[1024];
    size_t capacity = 1024;
    conns = calloc(capacity, sizeof *conns);
    while (fgets(line, sizeof line, file)) {
        char *space = strchr(line, ' ');
        if (!space) continue;
        space[strcspn(space, "\r\n")] = 0;
        if (total == capacity) {
            capacity *= 2;
            conns = realloc(conns, capacity * sizeof *conns);
            memset(conns + total, 0, (capacity - total) * sizeof *conns);
        }
        conns[total++].token = strdup(space + 1);
    }
    fclose(file);
    if (total == 0) {
        fprintf(stderr, "event-hold: no tokens in %s\n", argv[2]);
        return 1;
    }
    if (messages) {
        latencies = malloc(total * messages * sizeof *latencies);
        for (size_t k = 0; k < total; k++) conns[k].seen = calloc((messages + 63) / 64, sizeof(uint64_t));
        if (!latencies) die("malloc");
    }

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGUSR1);
    sigprocmask(SIG_BLOCK, &signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    int sigfd = signalfd(-1, &signals, SFD_NONBLOCK);
    epfd = epoll_create1(0);
    if (sigfd < 0 || epfd < 0) die("signalfd/epoll");
    struct epoll_event sigevent = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epfd, EPOLL_CTL_ADD, sigfd, &sigevent);

    double started = now_seconds(), stop_deadline = 0;
    int said_ready = 0;
    start_next();
    struct epoll_event events[512];
    for (;;) {
        if (!said_ready && announced_count + failed == total) {
            if (failed) {
                fprintf(stderr, "event-hold: %zu of %zu sockets did not open\n", failed, total);
                return 1;
            }
            printf("ready %zu sockets opened in %.1f s\n", total, now_seconds() - started);
            fflush(stdout);
            said_ready = 1;
        }
        if (stopping && (closed_count == total || now_seconds() > stop_deadline)) break;
        int ready = epoll_wait(epfd, events, 512, stopping ? 100 : -1);
        if (ready < 0 && errno != EINTR) die("epoll_wait");
        for (int i = 0; i < ready; i++) {
            struct conn *c = events[i].data.ptr;
            if (!c) {
                struct signalfd_siginfo info;
                while (read(sigfd, &info, sizeof info) == sizeof info) {
                    if (info.ssi_signo == SIGUSR1) {
                        printf("message_events %llu\n", message_events);
                        fflush(stdout);
                    } else if (!stopping) {
                        // Closes every open socket; the server answers each close and ends it.
                        stopping = 1;
                        stop_deadline = now_seconds() + 10;
                        static const unsigned char normal[2] = {0x03, 0xe8};
                        for (size_t k = 0; k < total; k++)
                            if (conns[k].state == OPEN) send_frame(&conns[k], 8, normal, 2);
                    }
                }
                continue;
            }
            if (c->state == CLOSED) continue;
            if (c->state == CONNECTING) send_upgrade(c);
            else readable(c);
        }
    }
    if (messages) print_receipts();
    printf("held %zu frames %llu message_events %llu closed_early %llu ", total, frames, message_events, closed_early);
    print_codes();
    printf(" cpu_seconds %.2f\n", cpu_seconds());
    return 0;
}
