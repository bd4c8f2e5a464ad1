# bash completion for lensctl(1); installed to /usr/share/bash-completion/completions/lensctl.
# Plain bash (COMP_WORDS, compgen): it needs nothing from the bash-completion package.

_lensctl_files() {
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$1"))
}

_lensctl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local words=("${COMP_WORDS[@]}") cword=$COMP_CWORD

    local commands="status devices capture record watch set verify trust-anchor"
    local common="--bus --json --help"
    local command="" i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --bus|-o|--camera|--flash|--zoom|--accuracy|--timeout|--count|--duration|--trust-anchor) ((i++)) ;;
            -*) ;;
            *) command=${words[i]}; break ;;
        esac
    done

    # Values of options that take one.
    case $prev in
        --bus) COMPREPLY=($(compgen -W "system session unix:path=" -- "$cur")); compopt -o nospace 2>/dev/null; return ;;
        --camera) COMPREPLY=($(compgen -W "back front external" -- "$cur") $(compgen -G "/dev/video*" -- "$cur")); return ;;
        --flash) COMPREPLY=($(compgen -W "off on auto" -- "$cur")); return ;;
        -o|--trust-anchor) _lensctl_files "$cur"; return ;;
        --zoom|--accuracy|--timeout|--count|--duration) return ;;
    esac

    if [[ -z $command ]]; then
        COMPREPLY=($(compgen -W "$commands --help" -- "$cur"))
        return
    fi

    case $command in
        status|devices|trust-anchor) COMPREPLY=($(compgen -W "$common" -- "$cur")) ;;
        capture)
            COMPREPLY=($(compgen -W "-o --camera --flash --zoom --accuracy --timeout --force $common" -- "$cur")) ;;
        record) COMPREPLY=($(compgen -W "-o --duration --force $common" -- "$cur")) ;;
        watch) COMPREPLY=($(compgen -W "--count --duration $common" -- "$cur")) ;;
        verify)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--trust-anchor --require-trusted --detailed $common" -- "$cur"))
            else
                _lensctl_files "$cur"
            fi ;;
        set)
            # The setting is the first word after "set", its value the next.
            local setting="" j
            for ((j = i + 1; j < cword; j++)); do
                [[ ${words[j]} != -* ]] && { setting=${words[j]}; break; }
            done
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--pinch $common" -- "$cur"))
            elif [[ -z $setting ]]; then
                COMPREPLY=($(compgen -W "flash zoom focus camera mode accuracy" -- "$cur"))
            else
                case $setting in
                    flash) COMPREPLY=($(compgen -W "off on auto toggle" -- "$cur")) ;;
                    camera) COMPREPLY=($(compgen -W "next back front external" -- "$cur") $(compgen -G "/dev/video*" -- "$cur")) ;;
                    mode) COMPREPLY=($(compgen -W "photo video" -- "$cur")) ;;
                esac
            fi ;;
    esac
} && complete -F _lensctl lensctl
