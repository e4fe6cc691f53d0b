# memwall in a container: the CLI with the web app inside, serving it on
# port 8000.
#
#   docker build -t memwall .
#   docker run --rm -p 8000:8000 memwall            # then open http://localhost:8000/
#   docker run --rm memwall predict --machine p4-1.7-pc133 --kernel quicksort --set n=8Mi
#
# The build stage generates the static site (app.wasm, pages, service
# worker, precompressed copies) into the directory cmd/memwall/site embeds,
# then builds a static binary. The image holds that one file.

ARG GO_VERSION=1.26.8

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-buildvcs=false
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go run ./wasm -out cmd/memwall/site/dist \
 && go build -trimpath -ldflags="-s -w" -o /out/memwall ./cmd/memwall \
 && /out/memwall help >/dev/null

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/memwall /usr/local/bin/memwall
EXPOSE 8000
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/memwall"]
CMD ["serve", "--addr", ":8000"]
